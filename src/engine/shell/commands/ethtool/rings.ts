/** `ethtool -g` / `-G`: ring sizes. Sources: ethtool netlink/rings.c; kernel net/ethtool/rings.c; ENA ena_ethtool.c. */
import { type CommandOutcome, done, fail } from '../../types';
import { type Ctx, Out } from './common';
import { isOutcome, nlError, nlNoDevice, type NlParam, nlParse } from './netlink';

// -g / -G -----------------------------------------------------------------------------------

const naU32 = (v: number | undefined) => (v === undefined ? 'n/a' : String(v));

export function doShowRing(c: Ctx): CommandOutcome {
  if (c.args.length > 0) return fail(`ethtool: unexpected parameter '${c.args[0]}'`, 1);
  if (!c.dev) return nlNoDevice(new Out(), 1);
  const r = c.dev.rings();
  const push = r.txPush;
  const text =
    `Ring parameters for ${c.devname}:\n` +
    'Pre-set maximums:\n' +
    `RX:\t\t\t${r.rxMax}\n` +
    'RX Mini:\t\tn/a\n' +
    'RX Jumbo:\t\tn/a\n' +
    `TX:\t\t\t${r.txMax}\n` +
    `TX push buff len:\t${naU32(push?.bufMaxLenBytes)}\n` +
    'Current hardware settings:\n' +
    `RX:\t\t\t${r.rx}\n` +
    'RX Mini:\t\tn/a\n' +
    'RX Jumbo:\t\tn/a\n' +
    `TX:\t\t\t${r.tx}\n` +
    'RX Buf Len:\t\tn/a\n' +
    'CQE Size:\t\tn/a\n' +
    `TX Push:\t\t${push ? 'on' : 'off'}\n` +
    'RX Push:\t\toff\n' +
    `TX push buff len:\t${naU32(push?.bufLenBytes)}\n` +
    'TCP data split:\t\tn/a\n';
  return done(text, 0, { ...r });
}

const SRING_PARAMS: NlParam[] = [
  { name: 'rx', kind: 'u32' },
  { name: 'rx-mini', kind: 'u32' },
  { name: 'rx-jumbo', kind: 'u32' },
  { name: 'tx', kind: 'u32' },
  { name: 'tx-push-buf-len', kind: 'u32', unmodelled: true },
  { name: 'rx-buf-len', kind: 'u32', unmodelled: true },
  { name: 'tcp-data-split', kind: 'lookup', unmodelled: true },
  { name: 'cqe-size', kind: 'u32', unmodelled: true },
  { name: 'tx-push', kind: 'bool', unmodelled: true },
  { name: 'rx-push', kind: 'bool', unmodelled: true },
];

/** nl_sring returns 81 when the kernel refuses the request (netlink/rings.c). */
const SRING_KERNEL_FAIL = 81;

export function doSetRing(c: Ctx): CommandOutcome {
  const parsed = nlParse('-G', c.args, SRING_PARAMS, c.devname);
  if (isOutcome(parsed)) return parsed;
  const o = new Out();
  if (!c.dev) return nlNoDevice(o, SRING_KERNEL_FAIL);
  const cur = c.dev.rings();
  const want = { rx: cur.rx, 'rx-mini': 0, 'rx-jumbo': 0, tx: cur.tx } as Record<string, number>;
  let mod = false;
  for (const p of parsed) {
    if (want[p.name] !== p.value) mod = true;
    want[p.name] = p.value as number;
  }
  if (!mod) return o.finish(0);
  // net/ethtool/rings.c: "requested ring size exceeds maximum", checked rx, rx-mini, rx-jumbo, tx.
  const max: Record<string, number> = { rx: cur.rxMax, 'rx-mini': 0, 'rx-jumbo': 0, tx: cur.txMax };
  for (const name of ['rx', 'rx-mini', 'rx-jumbo', 'tx']) {
    if (want[name]! > max[name]!) {
      const at = parsed.find((p) => p.name === name)?.offset;
      return nlError(o, 'EINVAL', 'requested ring size exceeds maximum', at, SRING_KERNEL_FAIL);
    }
  }
  const rxArg = parsed.some((p) => p.name === 'rx') ? want.rx : undefined;
  const txArg = parsed.some((p) => p.name === 'tx') ? want.tx : undefined;
  const err = c.dev.setRings(rxArg, txArg);
  if (err) return nlError(o, err, undefined, undefined, SRING_KERNEL_FAIL);
  return o.finish(0, c.dev.rings());
}
