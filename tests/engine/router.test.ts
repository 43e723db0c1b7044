/**
 * A Linux router between instances (issue 13), as TOONK's forwarding test: a sender's subnet routes
 * the sink's address to the router's interface (VPC middlebox routing, a route more specific than
 * the local one), the router's card has its source/destination check off and its kernel forwards
 * (net.ipv4.ip_forward=1). TOONK: c5n.9xlarge forwards RX + TX ≈ 6.2 Mpps together, about what it
 * receives alone: one aggregate budget. c5n.4xlarge forwards ≈ 3 + 3 Mpps where it receives ≈ 3 Mpps
 * alone: its in + out budget (ppsBidirectional, 6 Mpps) is above one direction's ceiling
 * (ppsAllowance, 3 Mpps). docs/design.md, "A Linux router between instances".
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createLab, runScript } from '../../src/engine/session/runner';
import { PRESETS } from '../../src/scenario/presets';
import { parseScenario } from '../../src/scenario/schema';

const FIXTURE = JSON.parse(readFileSync(new URL('./fixtures/router.json', import.meta.url), 'utf8'));

function labWith(routerType: string) {
  const doc = structuredClone(FIXTURE);
  doc.instances[1].type = routerType;
  const r = parseScenario(doc);
  if (!r.ok) throw new Error(r.errors.join('\n'));
  const lab = createLab(r.scenario);
  const routerId = JSON.parse(
    runScript(lab, [`aws ec2 describe-instances --filters Name=instance-type,Values=${routerType}`])[0]!
      .output,
  ).Reservations[0].Instances[0].InstanceId as string;
  return { lab, routerId };
}

const ROUTE = (id: string) =>
  `aws ec2 create-route --route-table-id rtb-0d000000000000002 --destination-cidr-block 10.0.1.20/32 --instance-id ${id}`;

/** The router's eth0 rxpck/s and txpck/s over the second second of a 64-B flood through it. */
function forward(routerType: string) {
  const { lab, routerId } = labWith(routerType);
  const runs = runScript(lab, [
    ROUTE(routerId),
    `aws ec2 modify-instance-attribute --instance-id ${routerId} --no-source-dest-check`,
    'router: sysctl -w net.ipv4.ip_forward=1',
    'sink: dpdk-testpmd -l 0-32 -- --forward-mode=rxonly --rxq=32 --txq=32 --nb-cores=32 &',
    'timeout 1.5 dpdk-testpmd -l 0-12 -- --forward-mode=txonly --txq=12 --rxq=12 --nb-cores=12 --txpkts=64 --txonly-multi-flow --tx-ip=10.0.0.10,10.0.1.20 &',
    'sleep 0.5',
    'router: sar -n DEV 1 1',
  ]);
  const sar = runs.find((r) => r.command.startsWith('sar'))!.output;
  const row = sar
    .split('\n')
    .find((l) => /^Average:\s+eth0\s/.test(l))!
    .trim()
    .split(/\s+/);
  return { rx: Number(row[2]), tx: Number(row[3]) };
}

/** The instance's eth0 rxpck/s over the second second of a 64-B flood addressed to it. */
function receiveAlone(type: string) {
  const { lab } = labWith(type);
  const runs = runScript(lab, [
    'timeout 1.5 dpdk-testpmd -l 0-12 -- --forward-mode=txonly --txq=12 --rxq=12 --nb-cores=12 --txpkts=64 --txonly-multi-flow --tx-ip=10.0.0.10,10.0.1.10 &',
    'sleep 0.5',
    'router: sar -n DEV 1 1',
  ]);
  const sar = runs.find((r) => r.command.startsWith('sar'))!.output;
  const row = sar
    .split('\n')
    .find((l) => /^Average:\s+eth0\s/.test(l))!
    .trim()
    .split(/\s+/);
  return { rx: Number(row[2]) };
}

describe('a Linux router between instances (TOONK)', () => {
  it('forwards only with the route, the source/destination check off and ip_forward on', () => {
    const { lab, routerId } = labWith('c5n.4xlarge');
    const ping = () => runScript(lab, ['ping -c 2 10.0.1.20'])[0]!.output;
    runScript(lab, [ROUTE(routerId)]);
    // the card drops what arrives for an address not its own while the check is on
    expect(ping()).toContain('0 received');
    runScript(lab, [`aws ec2 modify-instance-attribute --instance-id ${routerId} --no-source-dest-check`]);
    expect(
      JSON.parse(
        runScript(lab, [
          `aws ec2 describe-instance-attribute --instance-id ${routerId} --attribute sourceDestCheck`,
        ])[0]!.output,
      ).SourceDestCheck,
    ).toEqual({ Value: false });
    // the kernel drops a packet for another host while it does not forward
    expect(runScript(lab, ['router: sysctl net.ipv4.ip_forward'])[0]!.output).toBe(
      'net.ipv4.ip_forward = 0\n',
    );
    expect(ping()).toContain('0 received');
    expect(lab.instance('router')!.host.ipMib.inAddrErrors).toBe(2);
    runScript(lab, ['router: sysctl -w net.ipv4.ip_forward=1']);
    expect(ping()).toContain('2 received');
    expect(lab.instance('router')!.host.ipMib.forwDatagrams).toBe(2);
    // TCP through it: the data goes by the router, the ACKs straight back
    const iperf = runScript(lab, ['iperf3 -c 10.0.1.20 -n 50M'])[0]!;
    expect(iperf.exitCode, iperf.output).toBe(0);
    expect(lab.instance('router')!.host.ipMib.forwDatagrams).toBeGreaterThan(5000);
  }, 60_000);

  it('c5n.9xlarge: RX + TX ≈ 6.2 Mpps together, about what it receives alone (an aggregate limit)', () => {
    const r = forward('c5n.9xlarge');
    expect(r.rx + r.tx).toBeGreaterThan(6.0e6);
    expect(r.rx + r.tx).toBeLessThan(6.4e6);
    expect(Math.abs(r.rx - r.tx) / r.rx).toBeLessThan(0.02);
  }, 120_000);

  it('c5n.4xlarge: ≈ 3 Mpps RX and ≈ 3 Mpps TX at once, as much as it receives alone (TOONK: one direction stops below the budget both share)', () => {
    const r = forward('c5n.4xlarge');
    expect(r.rx + r.tx).toBeGreaterThan(5.8e6);
    expect(r.rx + r.tx).toBeLessThan(6.2e6);
    expect(Math.abs(r.rx - r.tx) / r.rx).toBeLessThan(0.02);
    // receiving alone (the flood addressed to the router itself): the direction's ceiling, ≈ 3 Mpps
    const alone = receiveAlone('c5n.4xlarge');
    expect(alone.rx).toBeGreaterThan(2.9e6);
    expect(alone.rx).toBeLessThan(3.1e6);
    expect(alone.rx).toBeGreaterThan(0.97 * r.rx);
    // c5n.9xlarge has no such ceiling: alone it receives about its whole 6.2 Mpps budget
    expect(receiveAlone('c5n.9xlarge').rx).toBeGreaterThan(6.0e6);
  }, 180_000);

  it('the router preset parses: the route to the router, its source/destination check off', () => {
    const p = PRESETS.find((x) => x.id === 'router')!;
    const r = parseScenario(p.scenario);
    expect(r.ok, r.ok ? '' : r.errors.join('\n')).toBe(true);
    if (!r.ok) return;
    const router = r.scenario.instances.find((i) => i.name === 'router')!;
    expect(router.sourceDestCheck).toBe(false);
    const routes = r.scenario.vpc.RouteTables.flatMap((t) => t.Routes);
    expect(
      routes.some((x) => x.NetworkInterfaceId === router.eniId && x.DestinationCidrBlock === '10.0.1.20/32'),
    ).toBe(true);
    expect(p.commands[0]).toBe('router: sysctl -w net.ipv4.ip_forward=1');
  });

  it('an instance with two interfaces: route to one by its ID; its own source/destination check', () => {
    const doc = structuredClone(FIXTURE);
    doc.instances[1].networkInterfaces = [{ deviceIndex: 1, subnet: 'subnet-0a000000000000002' }];
    const r = parseScenario(doc);
    if (!r.ok) throw new Error(r.errors.join('\n'));
    const lab = createLab(r.scenario);
    const out = (line: string) => runScript(lab, [line])[0]!;
    const routerId = JSON.parse(
      out('aws ec2 describe-instances --filters Name=instance-type,Values=c5n.9xlarge').output,
    ).Reservations[0].Instances[0].InstanceId as string;
    // the API's rule: an instance target needs exactly one interface
    expect(out(ROUTE(routerId)).output).toContain(
      `(InvalidInstanceID) when calling the CreateRoute operation: There are multiple interfaces attached to instance '${routerId}'. Please specify an interface ID for the operation instead.`,
    );
    const eth1 = JSON.parse(
      out('aws ec2 describe-network-interfaces --filters Name=attachment.device-index,Values=1').output,
    ).NetworkInterfaces[0];
    expect(eth1.SourceDestCheck).toBe(true);
    expect(
      out(
        `aws ec2 create-route --route-table-id rtb-0d000000000000002 --destination-cidr-block 10.0.1.20/32 --network-interface-id ${eth1.NetworkInterfaceId}`,
      ).exitCode,
    ).toBe(0);
    runScript(lab, ['router: sysctl -w net.ipv4.ip_forward=1']);
    // the instance attribute is the primary interface's: eth1's check still drops
    out(`aws ec2 modify-instance-attribute --instance-id ${routerId} --no-source-dest-check`);
    expect(out('ping -c 1 10.0.1.20').output).toContain('0 received');
    out(
      `aws ec2 modify-network-interface-attribute --network-interface-id ${eth1.NetworkInterfaceId} --no-source-dest-check`,
    );
    expect(
      JSON.parse(
        out(`aws ec2 describe-network-interfaces --network-interface-ids ${eth1.NetworkInterfaceId}`).output,
      ).NetworkInterfaces[0].SourceDestCheck,
    ).toBe(false);
    // in by eth1, out by eth0 (the main table's default route): both checks are off now
    expect(out('ping -c 1 10.0.1.20').output).toContain('1 received');
    expect(lab.instance('router')!.host.ipMib.forwDatagrams).toBe(1);
  });
});
