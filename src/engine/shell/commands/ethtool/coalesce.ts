/** `ethtool -c` / `-C`: interrupt coalescing. Sources: ethtool netlink/coalesce.c; kernel net/ethtool/coalesce.c. */
import { type CommandOutcome, done, fail } from '../../types';
import { type Ctx, Out } from './common';
import { isOutcome, nlError, nlNoDevice, type NlParam, nlParse } from './netlink';

// -c / -C -----------------------------------------------------------------------------------

export function doShowCoalesce(c: Ctx): CommandOutcome {
  if (c.args.length > 0) return fail(`ethtool: unexpected parameter '${c.args[0]}'`, 1);
  if (!c.dev) return nlNoDevice(new Out(), 1);
  const k = c.dev.coalesce();
  // ENA advertises ETHTOOL_COALESCE_USECS | ETHTOOL_COALESCE_USE_ADAPTIVE_RX, ixgbevf only
  // ETHTOOL_COALESCE_USECS (its rx-usecs 1 is its own dynamic mode): every other attribute is absent
  // from the kernel's reply and shows as n/a.
  const adaptive = coalesceSupported(c.dev).has('adaptive-rx') ? (k.adaptiveRx ? 'on' : 'off') : 'n/a';
  const text =
    `Coalesce parameters for ${c.devname}:\n` +
    `Adaptive RX: ${adaptive}  TX: n/a\n` +
    'stats-block-usecs:\tn/a\n' +
    'sample-interval:\tn/a\n' +
    'pkt-rate-low:\t\tn/a\n' +
    'pkt-rate-high:\t\tn/a\n' +
    '\n' +
    `rx-usecs:\t${k.rxUsecs}\n` +
    'rx-frames:\tn/a\n' +
    'rx-usecs-irq:\tn/a\n' +
    'rx-frames-irq:\tn/a\n' +
    '\n' +
    `tx-usecs:\t${k.txUsecs}\n` +
    'tx-frames:\tn/a\n' +
    'tx-usecs-irq:\tn/a\n' +
    'tx-frames-irq:\tn/a\n' +
    '\n' +
    'rx-usecs-low:\tn/a\n' +
    'rx-frame-low:\tn/a\n' +
    'tx-usecs-low:\tn/a\n' +
    'tx-frame-low:\tn/a\n' +
    '\n' +
    'rx-usecs-high:\tn/a\n' +
    'rx-frame-high:\tn/a\n' +
    'tx-usecs-high:\tn/a\n' +
    'tx-frame-high:\tn/a\n' +
    '\n' +
    'CQE mode RX: n/a  TX: n/a\n' +
    '\n' +
    'tx-aggr-max-bytes:\tn/a\n' +
    'tx-aggr-max-frames:\tn/a\n' +
    // ethtool 6.7 prints this label without its colon (fixed in 6.11).
    'tx-aggr-time-usecs\tn/a\n' +
    '\n';
  return done(text, 0, { ...k });
}

const SCOALESCE_PARAMS: NlParam[] = [
  { name: 'adaptive-rx', kind: 'bool' },
  { name: 'adaptive-tx', kind: 'bool' },
  ...[
    'sample-interval',
    'stats-block-usecs',
    'pkt-rate-low',
    'pkt-rate-high',
    'rx-usecs',
    'rx-frames',
    'rx-usecs-irq',
    'rx-frames-irq',
    'tx-usecs',
    'tx-frames',
    'tx-usecs-irq',
    'tx-frames-irq',
    'rx-usecs-low',
    'rx-frames-low',
    'tx-usecs-low',
    'tx-frames-low',
    'rx-usecs-high',
    'rx-frames-high',
    'tx-usecs-high',
    'tx-frames-high',
  ].map((name): NlParam => ({ name, kind: 'u32' })),
  { name: 'cqe-mode-rx', kind: 'bool' },
  { name: 'cqe-mode-tx', kind: 'bool' },
  { name: 'tx-aggr-max-bytes', kind: 'u32' },
  { name: 'tx-aggr-max-frames', kind: 'u32' },
  { name: 'tx-aggr-time-usecs', kind: 'u32' },
];
const ENA_COALESCE_SUPPORTED = new Set(['adaptive-rx', 'rx-usecs', 'tx-usecs']);
const IXGBEVF_COALESCE_SUPPORTED = new Set(['rx-usecs', 'tx-usecs']);

/** The driver's supported_coalesce_params, as ethtool attribute names. */
function coalesceSupported(dev: { driverInfo(): { driver: string } }): ReadonlySet<string> {
  return dev.driverInfo().driver === 'ixgbevf' ? IXGBEVF_COALESCE_SUPPORTED : ENA_COALESCE_SUPPORTED;
}

export function doSetCoalesce(c: Ctx): CommandOutcome {
  const parsed = nlParse('-C', c.args, SCOALESCE_PARAMS, c.devname);
  if (isOutcome(parsed)) return parsed;
  const o = new Out();
  if (!c.dev) return nlNoDevice(o, 1);
  // ethnl_set_coalesce_validate: any attribute outside supported_coalesce_params is refused.
  const supported = coalesceSupported(c.dev);
  const unsupported = parsed.find((p) => !supported.has(p.name));
  if (unsupported)
    return nlError(o, 'EINVAL', 'cannot modify an unsupported parameter', unsupported.offset, 1);
  const cur = c.dev.coalesce();
  const change: { adaptiveRx?: boolean; rxUsecs?: number; txUsecs?: number } = {};
  for (const p of parsed) {
    if (p.name === 'adaptive-rx' && p.value !== cur.adaptiveRx) change.adaptiveRx = p.value as boolean;
    if (p.name === 'rx-usecs' && p.value !== cur.rxUsecs) change.rxUsecs = p.value as number;
    if (p.name === 'tx-usecs' && p.value !== cur.txUsecs) change.txUsecs = p.value as number;
  }
  if (Object.keys(change).length === 0) return o.finish(0);
  const err = c.dev.setCoalesce(change);
  if (err) return nlError(o, err, undefined, undefined, 1);
  return o.finish(0, c.dev.coalesce());
}
