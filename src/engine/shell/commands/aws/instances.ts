/**
 * `aws ec2 describe-instances` on the lab's instances (one reservation each), and the instance-id
 * checks the instance operations share. Sources: the EC2 API reference (DescribeInstances and its
 * filters); public CLI output for the error texts.
 */
import { isResourceId, LAB_ACCOUNT_ID } from '../../../../scenario/vpc';
import type { Eni, VpcState } from '../../../vpc/state';
import { fail } from '../../types';
import { AWS_EXIT, isOut, svc } from './cli';
import { applyFilters, dryRun, type Ec2Operation, type Handler, parse, readFilters } from './request';
import { instanceIdentity, privateDnsName } from '../instance-identity';
import { instanceOut, instanceState, json } from './shapes';

/** The real service's texts (public CLI output): `Invalid id: "x"`, `The instance ID(s) '…' does (do) not exist`. */
export function findInstances(state: VpcState, ids: string[]): Eni[] {
  for (const id of ids)
    if (!isResourceId('i', id)) throw svc('InvalidInstanceID.Malformed', `Invalid id: "${id}"`);
  const missing = ids.filter((id) => !state.enis.some((e) => e.instanceId === id));
  if (missing.length === 1)
    throw svc('InvalidInstanceID.NotFound', `The instance ID '${missing[0]}' does not exist`);
  if (missing.length > 1)
    throw svc('InvalidInstanceID.NotFound', `The instance IDs '${missing.join(', ')}' do not exist`);
  // the API lists the instances in its own order, once each, whatever the order asked
  return state.enis.filter((e) => ids.includes(e.instanceId));
}

const describeInstances: Handler = (args, state, lab) => {
  const p = parse(args, {
    'instance-ids': { kind: 'list' },
    filters: { kind: 'struct-list' },
    'max-results': { kind: 'int' },
    'next-token': { kind: 'string' },
  });
  if (isOut(p)) return p;
  for (const k of ['max-results', 'next-token'])
    if (p.values.has(k))
      return fail(`aws: --${k} is not simulated in ec2-netlab (the lab has one page)`, AWS_EXIT.usage);
  dryRun(p);
  const ids = p.values.get('instance-ids') as string[] | undefined;
  const enis = ids ? findInstances(state, ids) : state.enis;
  const az = (e: Eni) => state.subnet(e.subnetId)?.AvailabilityZone ?? '';
  const out = applyFilters(enis, readFilters(p.values.get('filters')), {
    'instance-id': (e) => [e.instanceId],
    'instance-type': (e) => [e.instanceType],
    'private-ip-address': (e) => [e.ip],
    'private-dns-name': (e) => [privateDnsName(e.ip)],
    'subnet-id': (e) => [e.subnetId],
    'vpc-id': () => [state.vpc.VpcId],
    'placement-group-name': (e) => {
      const name = instanceIdentity(lab, state, e).placementGroupName;
      return name === '' ? [] : [name];
    },
    'availability-zone': (e) => [az(e)],
    'instance-state-name': (e) => [instanceState(lab.instance(e.instanceName)).Name],
    'instance-state-code': (e) => [String(instanceState(lab.instance(e.instanceName)).Code)],
    'network-interface.network-interface-id': (e) => [e.eniId],
    'network-interface.addresses.private-ip-address': (e) => [e.ip, ...e.secondaryIps],
    'instance.group-id': (e) => e.securityGroups,
    architecture: (e) => [instanceIdentity(lab, state, e).architecture],
    'image-id': (e) => [instanceIdentity(lab, state, e).imageId],
    'reservation-id': (e) => [instanceIdentity(lab, state, e).reservationId],
  });
  return json({
    Reservations: out.map((e) => ({
      Groups: [],
      Instances: [instanceOut(state, lab, e)],
      OwnerId: LAB_ACCOUNT_ID,
      ReservationId: instanceIdentity(lab, state, e).reservationId,
    })),
  });
};

export const instanceOperations: Record<string, Ec2Operation> = {
  'describe-instances': { api: 'DescribeInstances', run: describeInstances },
};
