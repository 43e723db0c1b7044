// Example host page for the ec2-netlab postMessage API (README, "Sharing and embedding").
// The lab is served from the same place as this page unless the page is opened with
// ?lab=<the lab's URL> (serve the lab from its own origin on a real site: the frame's sandbox
// protects nothing when the lab shares the host page's origin). ORIGIN is this page's origin.

// Labs this page frames when named by ?lab=: its own origin and the loopback addresses (trying it
// out locally). A site adds its lab's origin here, and to frame-src in embed-example.html's CSP;
// any other ?lab= is refused, so a crafted link cannot make this page frame an arbitrary site.
const ALLOWED_LAB_ORIGINS = [location.origin];
const LOOPBACK = /^(localhost|127\.0\.0\.1|\[::1\])$/;
let refusedLab = null;

function labAllowed(u) {
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return false;
  return ALLOWED_LAB_ORIGINS.includes(u.origin) || LOOPBACK.test(u.hostname);
}

function labUrl() {
  const given = new URLSearchParams(location.search).get('lab');
  if (given) {
    let u = null;
    try {
      u = new URL(given, location.href);
    } catch {
      u = null;
    }
    if (u && labAllowed(u)) return new URL('./', u).href;
    refusedLab = given;
  }
  return new URL('./', location.href).href;
}
const LAB = labUrl();
// The origin the frame's link names: this page's own. (?origin=… names another one, to see that
// the lab then ignores this page: it answers only the origin its link names.)
const ORIGIN = new URLSearchParams(location.search).get('origin') ?? location.origin;
const LAB_ORIGIN = new URL(LAB).origin;

const frame = document.getElementById('lab');
const log = document.getElementById('log');
const time = document.getElementById('time');
const counters = document.getElementById('counters');

// embed=1 + origin=<this page>: the lab turns its postMessage API on for this origin only.
// panels: the packet path, one chart (chart=rate: the rate against iperf3's and CloudWatch's
// averages) and the experiment's commands as buttons (terminal instead gives the shell)
const flags = new URLSearchParams({
  embed: '1',
  panels: 'path,chart,commands',
  chart: 'rate',
  controls: 'minimal',
  origin: ORIGIN,
});
frame.src = `${LAB}#${flags}`;

function send(body) {
  // always name the lab's origin as the target, never "*"
  frame.contentWindow.postMessage({ ns: 'ec2-netlab', v: 1, ...body }, LAB_ORIGIN);
}

function note(text) {
  const li = document.createElement('li');
  li.textContent = text; // text, never HTML
  log.prepend(li);
}

if (refusedLab !== null)
  note(`?lab=${refusedLab} is not in this page's allow-list (ALLOWED_LAB_ORIGINS): the lab beside this page is shown`);

window.addEventListener('message', (ev) => {
  // only the lab's frame, from the lab's origin
  if (ev.origin !== LAB_ORIGIN || ev.source !== frame.contentWindow) return;
  const m = ev.data;
  if (typeof m !== 'object' || m === null || m.ns !== 'ec2-netlab') return;
  switch (m.type) {
    case 'time':
      time.textContent = `${(m.timeNs / 1e9).toFixed(3)} s`;
      return;
    case 'height':
      frame.style.height = `${m.px}px`; // autosize the frame to the lab's content
      return;
    case 'counters': {
      // what the Nitro card dropped, per instance (ethtool -S names)
      const parts = Object.entries(m.counters).map(
        ([host, c]) =>
          `${host}: bw_out ${c.bw_out_allowance_exceeded ?? 0}, bw_in ${c.bw_in_allowance_exceeded ?? 0}, pps ${c.pps_allowance_exceeded ?? 0}`,
      );
      counters.textContent = parts.join(' · ');
      return;
    }
    case 'loaded':
      note(`loaded${m.changes.length ? `, with changes: ${m.changes.join('; ')}` : ''}`);
      return;
    default:
      note(JSON.stringify(m));
  }
});

document.getElementById('play').addEventListener('click', () => send({ type: 'play' }));
document.getElementById('pause').addEventListener('click', () => send({ type: 'pause' }));
document.getElementById('seek').addEventListener('click', () => send({ type: 'seek', timeNs: 1_000_000_000 }));
document.getElementById('load').addEventListener('click', () =>
  send({
    type: 'load',
    // the session is what was typed in the lab's terminal and when (simulated ns): the lab types
    // these lines at those instants; press Play to run them
    scenario: {
      version: 4,
      instances: [
        { name: 'client', type: 'c7i.large' },
        { name: 'server', type: 'c7i.large' },
      ],
      session: [
        { atNs: 0, line: 'iperf3 -c server -t 1 -M 128' },
        { atNs: 1_100_000_000, line: 'ethtool -S eth0' },
      ],
    },
  }),
);
