/**
 * dig 9.18 (BIND): `dig [@SERVER] NAME [A|AAAA] [+short]` against the VPC resolver (VPC base + 2,
 * or 169.254.169.253; other servers are refused, the instances run none). The query is one UDP
 * packet through the host and the Nitro card, taking a token of the ENI's 1024 pps link-local
 * allowance (docs/domain-facts.md §2.4); a lost query is retried as dig does (+time=5, +tries=3)
 * until ";; no servers could be reached" (exit 9). Output as dig lays it out, ";; WHEN:" on the
 * lab's wall clock (UTC).
 *
 * Sources: BIND bin/dig/dighost.c, lib/dns/message.c; the model in apps/dns.ts, vpc/link-local.ts.
 */
import { type DnsAnswer, DnsClient, DNS_TTL_S, fqdn, lookupA } from '../../apps/dns';
import type { Instance, Lab } from '../../lab/lab';
import { vpcState } from '../../vpc';
import { LAB_EPOCH_UNIX_S, utcFields } from '../../../lib/time';
import type { CommandOutcome, Job } from '../types';
import { DIG_HELP, labNote } from './real-help';

export const DIG_VERSION = '9.18.33';
/** dig's usage() on a bad option (stderr, exit 1): print_usage, then where the full list is. */
const DIG_USAGE = `${DIG_HELP.slice(0, DIG_HELP.indexOf('Where:'))}\nUse "dig -h" (or "dig -h | more") for complete list of options\n`;
const DIG_NOTE = labNote('dig', '@SERVER (the VPC resolver), NAME, A/AAAA, IN and +short');
const TIMEOUT_NS = 5e9;
const TRIES = 3;

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** strftime "%a %b %d %H:%M:%S %Z %Y" in UTC, as dig prints ";; WHEN:". */
export function digWhen(nowNs: number, wallClockStartS = LAB_EPOCH_UNIX_S): string {
  const f = utcFields(wallClockStartS + Math.floor(nowNs / 1e9));
  const p2 = (n: number) => String(n).padStart(2, '0');
  return `${WEEKDAYS[f.weekday]} ${MONTHS[f.month - 1]} ${p2(f.day)} ${p2(f.hour)}:${p2(f.minute)}:${p2(f.second)} UTC ${f.year}`;
}

/** Tab-pad `s` (starting at column `col`) to column `to`, at least one tab (8-column tab stops). */
function tabTo(s: string, to: number, col = 0): string {
  let c = col + s.length;
  let out = s;
  do {
    out += '\t';
    c = Math.floor(c / 8) * 8 + 8;
  } while (c < to);
  return out;
}

export function runDig(argv: string[], lab: Lab, self: Instance): CommandOutcome {
  const vpc = vpcState(lab);
  const resolver = vpc.resolverIp();
  let server = resolver;
  let name: string | null = null;
  let type: 'A' | 'AAAA' = 'A';
  let short = false;
  for (const a of argv) {
    if (a.startsWith('@')) server = a.slice(1);
    else if (a.startsWith('+')) {
      if (a === '+short') short = true;
      else if (a === '+noall' || a === '+answer' || a === '+stats' || a === '+nostats' || a === '+cmd')
        return fail(`dig: option ${a} is not simulated in ec2-netlab (only +short is)\n`, 1);
      else return fail(`Invalid option: ${a}\n${DIG_USAGE}`, 1);
    } else if (a === '-h')
      return { kind: 'done', out: { stdout: DIG_HELP + DIG_NOTE, stderr: '', exitCode: 0 } };
    else if (a.startsWith('--')) return fail(`Invalid option: ${a}\n${DIG_USAGE}`, 1);
    else if (a.startsWith('-')) return fail(`dig: option ${a} is not simulated in ec2-netlab\n`, 1);
    else if (/^(A|AAAA)$/i.test(a) && name !== null) type = a.toUpperCase() as 'A' | 'AAAA';
    else if (/^(MX|TXT|NS|SOA|CNAME|PTR|SRV|ANY|CAA|DS|DNSKEY)$/i.test(a) && name !== null)
      return fail(`dig: record type ${a.toUpperCase()} is not simulated in ec2-netlab (A and AAAA are)\n`, 1);
    else if (/^IN$/i.test(a)) continue;
    else if (name === null) name = a;
    else return fail('dig: more than one query per command is not simulated in ec2-netlab\n', 1);
  }
  if (name === null)
    return fail('dig: querying the root servers (no name) is not simulated in ec2-netlab\n', 1);
  if (!/^\d+\.\d+\.\d+\.\d+$/.test(server)) {
    const ip = lookupA(lab, server);
    if (!ip) return fail(`dig: couldn't get address for '${server}': not found\n`, 10);
    server = ip;
  }
  if (server !== resolver && server !== '169.254.169.253')
    return fail(
      `dig: only the VPC resolver (${resolver}, 169.254.169.253) is simulated as a DNS server in ec2-netlab\n`,
      1,
    );
  const qname = fqdn(name);
  const client = new DnsClient(lab, self, server, true, true);
  const id = (self.rng.nextU32() & 0xffff) >>> 0;
  let answer: DnsAnswer | null = null;
  let tries = 0;
  let sentAt = 0;
  let errors = '';
  let interrupted = false;
  const send = () => {
    tries++;
    sentAt = lab.nowNs;
    client.query(id, name!, type, (a) => {
      answer = a;
    });
  };
  send();
  const job: Job = {
    done: () => {
      if (answer || interrupted) return true;
      if (lab.nowNs - sentAt >= TIMEOUT_NS) {
        errors += `;; communications error to ${server}#53: timed out\n`;
        if (tries >= TRIES) return true;
        send();
      }
      return false;
    },
    deadlineNs: () => Math.min(lab.nowNs, sentAt + TIMEOUT_NS),
    interrupt: () => {
      interrupted = true;
    },
    finish: () => {
      client.close();
      const a = answer as DnsAnswer | null;
      if (!a) {
        if (interrupted) return { stdout: errors, stderr: '', exitCode: 130 };
        const head = short
          ? ''
          : `\n; <<>> DiG ${DIG_VERSION} <<>> ${argv.join(' ')}\n;; global options: +cmd\n`;
        return { stdout: `${head}${errors};; no servers could be reached\n`, stderr: '', exitCode: 9 };
      }
      const ms = Math.floor((a.atNs - a.sentNs) / 1e6);
      const nAns = a.address ? 1 : 0;
      const rr = a.address ? `${tabTo(qname, 24)}${DNS_TTL_S}\tIN\t${type}\t${a.address}\n` : '';
      if (short)
        return {
          stdout: `${errors}${a.address ? `${a.address}\n` : ''}`,
          stderr: '',
          exitCode: 0,
          result: a,
        };
      let out = `\n; <<>> DiG ${DIG_VERSION} <<>> ${argv.join(' ')}\n;; global options: +cmd\n${errors};; Got answer:\n`;
      out += `;; ->>HEADER<<- opcode: QUERY, status: ${a.rcode}, id: ${id}\n`;
      out += `;; flags: qr rd ra; QUERY: 1, ANSWER: ${nAns}, AUTHORITY: 0, ADDITIONAL: 1\n\n`;
      out += ';; OPT PSEUDOSECTION:\n; EDNS: version: 0, flags:; udp: 4096\n';
      out += `;; QUESTION SECTION:\n${tabTo(`;${qname}`, 32)}IN\t${type}\n\n`;
      if (nAns) out += `;; ANSWER SECTION:\n${rr}\n`;
      out += `;; Query time: ${ms} msec\n`;
      out += `;; SERVER: ${server}#53(${server}) (UDP)\n`;
      out += `;; WHEN: ${digWhen(lab.nowNs, lab.wallClockStartS)}\n`;
      out += `;; MSG SIZE  rcvd: ${a.sizeBytes}\n\n`;
      return {
        stdout: out,
        stderr: '',
        exitCode: 0,
        result: { status: a.rcode, answer: a.address, queryTimeMs: ms, server, tries },
      };
    },
  };
  return { kind: 'job', job };
}

function fail(stderr: string, exitCode: number): CommandOutcome {
  return { kind: 'done', out: { stdout: '', stderr, exitCode } };
}
