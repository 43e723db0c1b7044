/**
 * The port names tcpdump prints and its filter takes: the lab's /etc/services, the few
 * services its tools use (5201 is iperf3's default port, targus-getdata1 in IANA's registry).
 * Sources: IANA service-names-port-numbers, netbase's /etc/services.
 */

export const SERVICES: Record<string, number> = {
  http: 80,
  https: 443,
  domain: 53,
  ssh: 22,
  'targus-getdata1': 5201,
};

const PORT_NAMES: Record<number, string> = Object.fromEntries(
  Object.entries(SERVICES).map(([name, port]) => [port, name]),
);

/** A TCP or UDP port as tcpdump prints it: its service name, or the number (-nn: always the number). */
export function portName(n: number, proto: number, numeric: 0 | 1 | 2): string {
  if (numeric === 2) return String(n);
  return (proto === 6 || proto === 17 ? PORT_NAMES[n] : undefined) ?? String(n);
}
