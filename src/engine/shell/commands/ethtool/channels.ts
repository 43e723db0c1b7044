/** `ethtool -l` / `-L`: channels (queue pairs). Sources: ethtool netlink/channels.c; kernel net/ethtool/channels.c. */
import { defaultIndirectionTable } from '../../../host/rss';
import { type CommandOutcome, done, fail } from '../../types';
import { type Ctx, Out } from './common';
import { isOutcome, nlError, nlNoDevice, type NlParam, nlParse } from './netlink';

// -l / -L -----------------------------------------------------------------------------------

export function doShowChannels(c: Ctx): CommandOutcome {
  if (c.args.length > 0) return fail(`ethtool: unexpected parameter '${c.args[0]}'`, 1);
  if (!c.dev) return nlNoDevice(new Out(), 1);
  const ch = c.dev.channels();
  const text =
    `Channel parameters for ${c.devname}:\n` +
    'Pre-set maximums:\n' +
    'RX:\t\tn/a\n' +
    'TX:\t\tn/a\n' +
    'Other:\t\tn/a\n' +
    `Combined:\t${ch.combinedMax}\n` +
    'Current hardware settings:\n' +
    'RX:\t\tn/a\n' +
    'TX:\t\tn/a\n' +
    'Other:\t\tn/a\n' +
    `Combined:\t${ch.combined}\n`;
  return done(text, 0, { ...ch });
}

const SCHANNELS_PARAMS: NlParam[] = [
  { name: 'rx', kind: 'u32' },
  { name: 'tx', kind: 'u32' },
  { name: 'other', kind: 'u32' },
  { name: 'combined', kind: 'u32' },
];

/** Whether the user changed the indirection table (approximates netif_is_rxfh_configured). */
function rxfhConfigured(indir: number[], queues: number): boolean {
  const def = defaultIndirectionTable(queues, indir.length || 1);
  return indir.some((q, i) => q !== def[i]);
}

export function doSetChannels(c: Ctx): CommandOutcome {
  const parsed = nlParse('-L', c.args, SCHANNELS_PARAMS, c.devname);
  if (isOutcome(parsed)) return parsed;
  const o = new Out();
  if (!c.dev) return nlNoDevice(o, 1);
  const cur = c.dev.channels();
  const want: Record<string, number> = { rx: 0, tx: 0, other: 0, combined: cur.combined };
  let mod = false;
  for (const p of parsed) {
    if (want[p.name] !== p.value) mod = true;
    want[p.name] = p.value as number;
  }
  if (!mod) return o.finish(0);
  const offsetOf = (name: string) => parsed.find((p) => p.name === name)?.offset;
  // net/ethtool/channels.c ethnl_set_channels, in its order. ENA has combined channels only.
  const max: Record<string, number> = { rx: 0, tx: 0, other: 0, combined: cur.combinedMax };
  for (const name of ['rx', 'tx', 'other', 'combined']) {
    if (want[name]! > max[name]!) {
      return nlError(o, 'EINVAL', 'requested channel count exceeds maximum', offsetOf(name), 1);
    }
  }
  if (want.combined === 0) {
    const at = offsetOf('combined') ?? offsetOf(want.rx === 0 ? 'rx' : 'tx');
    return nlError(
      o,
      'EINVAL',
      'requested channel counts would result in no RX or TX channel being configured',
      at,
      1,
    );
  }
  const combined = want.combined!;
  const rss = c.dev.rss();
  if (rxfhConfigured(rss.indir, cur.combined)) {
    const maxInUse = Math.max(...rss.indir);
    if (combined <= maxInUse) {
      return nlError(
        o,
        'EINVAL',
        'requested channel counts are too low for existing indirection table settings',
        undefined,
        1,
      );
    }
  }
  const rules = c.dev.ntupleSupported() ? c.dev.ntupleRules() : [];
  if (rules.length > 0 && combined <= Math.max(...rules.map((r) => r.action))) {
    return nlError(
      o,
      'EINVAL',
      'requested channel counts are too low for existing ntuple filter settings',
      undefined,
      1,
    );
  }
  const err = c.dev.setChannels(combined);
  if (err) return nlError(o, err, undefined, undefined, 1);
  return o.finish(0, c.dev.channels());
}
