/**
 * curl against the lab's web server: output as curl 8.5 prints it, timings that come from the
 * packets' trip through both stacks and Nitro cards, and curl's errors and exit codes.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_PAGE_BYTES, defaultPage } from '../../src/engine/apps/http';
import type { Lab } from '../../src/engine/lab/lab';
import { createLab, LabSession, type RunRecord } from '../../src/engine/session/runner';
import { max5data, progressLine } from '../../src/engine/shell/commands/curl';
import { defaultScenario } from '../../src/scenario/schema';

function run(lines: string[], lab: Lab = createLab(defaultScenario())): RunRecord[] {
  const s = new LabSession(lab);
  const out: RunRecord[] = [];
  for (const l of lines) out.push(...s.run(l));
  out.push(...s.close());
  return out;
}

const one = (line: string, lab?: Lab) => run([line], lab)[0]!;
const W =
  "-w '%{time_connect} %{time_appconnect} %{time_starttransfer} %{time_total} %{http_code} %{size_download} %{speed_download} %{remote_ip}\\n'";

describe('curl: a GET over a new connection to the lab web server', () => {
  it('prints the default page to the terminal, exit 0', () => {
    const r = one('curl http://server/a_file');
    expect(r.exitCode).toBe(0);
    expect(r.output).toBe(defaultPage());
    expect(defaultPage().length).toBe(DEFAULT_PAGE_BYTES);
  });

  it('-w reports the timings of the handshake, first byte and last byte, and the size', () => {
    const r = one(`curl -s -o /dev/null ${W} http://server/100k`);
    expect(r.exitCode).toBe(0);
    const [connect, appconnect, start, total, code, size, speed, ip] = r.output.trim().split(' ');
    expect(code).toBe('200');
    expect(size).toBe('102400');
    expect(ip).toBe('10.0.0.11');
    expect(Number(appconnect)).toBe(0); // plain HTTP: no TLS
    // one round trip in a cluster placement group: tens of µs
    expect(Number(connect)).toBeGreaterThan(20e-6);
    expect(Number(connect)).toBeLessThan(200e-6);
    expect(Number(start)).toBeGreaterThan(Number(connect));
    expect(Number(total)).toBeGreaterThan(Number(start));
    expect(Math.abs(Number(speed) * Number(total) - 102400)).toBeLessThan(102400 * 0.01); // bytes / s
  });

  it('HTTPS costs one more round trip (the TLS 1.3 handshake) before the request', () => {
    const plain = one(`curl -s -o /dev/null ${W} http://server/1k`).output.trim().split(' ');
    const tls = one(`curl -s -o /dev/null ${W} https://server/1k`).output.trim().split(' ');
    const rtt = Number(plain[0]);
    expect(Number(tls[1])).toBeGreaterThan(Number(tls[0]) + 0.8 * rtt); // appconnect after connect
    expect(Number(tls[2]) - Number(plain[2])).toBeGreaterThan(0.8 * rtt);
  });

  it('a large file is limited by the per-flow limit (10 Gbps in a cluster placement group)', () => {
    const r = one("curl -s -o /dev/null -w '%{speed_download}' http://server/100M");
    const gbps = (Number(r.output) * 8) / 1e9;
    expect(gbps).toBeGreaterThan(8);
    expect(gbps).toBeLessThan(10.3); // 1 ms of bucket depth on top of the rate;
  });

  it('-o shows the progress meter on stderr; -s hides it', () => {
    const r = one('curl -o /dev/null http://server/1M');
    expect(r.stderr).toMatch(
      /^ {2}% Total {4}% Received % Xferd {2}Average Speed {3}Time {4}Time {5}Time {2}Current\n {33}Dload {2}Upload {3}Total {3}Spent {4}Left {2}Speed\n100 1024k {2}100 1024k {4}0 {5}0 +\S+ +0 --:--:-- --:--:-- --:--:-- +\S+\n$/,
    );
    expect(one('curl -s -o /dev/null http://server/1M').output).toBe('');
  });

  it('-v prints the connection, request and response lines', () => {
    const r = one('curl -v -o /dev/null http://server/');
    expect(r.stderr).toContain('*   Trying 10.0.0.11:80...\n* Connected to server (10.0.0.11) port 80\n');
    expect(r.stderr).toContain(
      '> GET / HTTP/1.1\n> Host: server\n> User-Agent: curl/8.5.0\n> Accept: */*\n> \n',
    );
    expect(r.stderr).toContain('< HTTP/1.1 200 OK\n< Server: nginx/1.24.0\n');
    expect(r.stderr).toContain(`< Content-Length: ${DEFAULT_PAGE_BYTES}\n`);
    expect(r.stderr).toContain('* Connection #0 to host server left intact\n');
  });

  it('a binary body to the terminal is refused with curl’s warning, exit 23', () => {
    const r = one('curl http://server/4k');
    expect(r.exitCode).toBe(23);
    expect(r.stderr).toContain('Warning: Binary output can mess up your terminal.');
  });

  it('progress meter columns follow lib/progress.c', () => {
    expect(max5data(99999)).toBe('99999');
    expect(max5data(100000)).toBe('  97k');
    expect(max5data(1048576)).toBe('1024k');
    expect(max5data(100 * 1048576)).toBe(' 100M');
    expect(max5data(15 * 1048576)).toBe('15.0M');
    // 2048 bytes in 1 ms: 2,048,000 B/s shown as 2000k (1024-byte k)
    expect(progressLine(2048, 2048, 1e6)).toBe(
      '100  2048  100  2048    0     0  2000k      0 --:--:-- --:--:-- --:--:-- 2000k',
    );
  });
});

describe('curl: errors and exit codes', () => {
  it('unknown host: (6) Could not resolve host', () => {
    const r = one('curl http://nosuchhost/');
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toBe('curl: (6) Could not resolve host: nosuchhost\n');
  });

  it('closed port: (7) Failed to connect … Couldn’t connect to server', () => {
    const r = one('curl http://server:8080/');
    expect(r.exitCode).toBe(7);
    expect(r.stderr).toMatch(
      /^curl: \(7\) Failed to connect to server port 8080 after \d+ ms: Couldn't connect to server\n$/,
    );
  });

  it('SYN dropped by the security group: --connect-timeout gives (28) after the timeout', () => {
    const lab = createLab(defaultScenario());
    const sg = lab.scenario.vpc.SecurityGroups[0]!.GroupId;
    const rs = run(
      [
        `aws ec2 revoke-security-group-ingress --group-id ${sg} --protocol all --source-group ${sg}`,
        'curl --connect-timeout 2 http://server/',
      ],
      lab,
    );
    const r = rs[1]!;
    expect(r.exitCode).toBe(28);
    expect(r.stderr).toMatch(
      /^curl: \(28\) Failed to connect to server port 80 after 200\d ms: Timeout was reached\n$/,
    );
    expect((r.endNs - r.startNs) / 1e9).toBeCloseTo(2, 1);
  });

  it('-m during a transfer: (28) Operation timed out with the bytes received', () => {
    const r = one('curl -m 0.01 -o /dev/null -s -S http://server/1G');
    expect(r.exitCode).toBe(28);
    expect(r.stderr).toMatch(
      /^curl: \(28\) Operation timed out after 1\d milliseconds with \d+ out of 1073741824 bytes received\n$/,
    );
  });

  it('-s silences errors, -sS shows them', () => {
    expect(one('curl -s http://nosuchhost/').output).toBe('');
    expect(one('curl -sS http://nosuchhost/').stderr).toBe('curl: (6) Could not resolve host: nosuchhost\n');
  });

  it('bad options and URLs: curl’s own messages', () => {
    const a = one('curl --bogus http://server/');
    expect(a.exitCode).toBe(2);
    expect(a.stderr).toBe(
      "curl: option --bogus: is unknown\ncurl: try 'curl --help' or 'curl --manual' for more information\n",
    );
    const b = one('curl');
    expect(b.exitCode).toBe(2);
    expect(b.stderr).toBe(
      "curl: no URL specified!\ncurl: try 'curl --help' or 'curl --manual' for more information\n",
    );
    const c = one('curl ftp://server/x');
    expect(c.exitCode).toBe(1);
    expect(c.stderr).toBe('curl: (1) Protocol "ftp" not supported\n');
    const d = one('curl --connect-timeout abc http://server/');
    expect(d.exitCode).toBe(2);
    expect(d.stderr).toContain('curl: option --connect-timeout: expected a proper numerical parameter\n');
    const e = one('curl -H X:1 http://server/');
    expect(e.exitCode).toBe(2);
    expect(e.stderr).toContain('not simulated');
  });
});
