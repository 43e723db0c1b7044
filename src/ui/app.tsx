/** Placeholder shell until the visual lab lands: points people at the headless lab. */
export function App() {
  return (
    <main
      style={{ fontFamily: 'system-ui, sans-serif', maxWidth: 720, margin: '3rem auto', lineHeight: 1.5 }}
    >
      <h1>ec2-netlab</h1>
      <p>
        A lab for EC2 Nitro networking: simulated instances, the host stack, ENA rings and the Nitro card,
        driven by the commands you would type on a real instance.
      </p>
      <p>
        The visual lab is being built. The engine and its shell already run headless:
        <code> npm run lab -- "iperf3 -c server -t 1 -l 9000 -P 2"</code>
      </p>
    </main>
  );
}
