// Example host page for the ec2-netlab postMessage API (README, "Embedding").
// The lab is served from the same place as this page here; on a real documentation site, set
// LAB to the lab's URL (its own origin) and keep ORIGIN as the documentation page's origin.
const LAB = new URL('./', location.href).href;
const ORIGIN = location.origin;
const LAB_ORIGIN = new URL(LAB).origin;

const frame = document.getElementById('lab');
const log = document.getElementById('log');
const time = document.getElementById('time');

// embed=1 + origin=<this page>: the lab turns its postMessage API on for this origin only
const flags = new URLSearchParams({ embed: '1', panels: 'path,charts', controls: 'minimal', origin: ORIGIN });
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
    scenario: {
      version: 2,
      instances: [
        { name: 'client', type: 'c7i.large' },
        { name: 'server', type: 'c7i.large' },
      ],
      script: ['iperf3 -c server -t 1 -M 128', 'ethtool -S eth0'],
    },
  }),
);
