/**
 * `aws ec2 describe-route-tables`, `create-route`, `replace-route` and `delete-route` on the lab's
 * VPC (targets: internet gateway, NAT gateway, network interface, instance; the `local` route is
 * the VPC's own). Sources: the EC2 API reference; moto ec2/exceptions.py for error texts.
 */
import {
  isResourceId,
  LAB_ACCOUNT_ID,
  parseCidr,
  type Route,
  type RouteTable,
  type Vpc,
} from '../../../../scenario/vpc';
import type { VpcState } from '../../../vpc/state';
import { fail } from '../../types';
import { AWS_EXIT, isOut, type ParamSpec, svc } from './cli';
import {
  commit,
  describeSelected,
  dryRun,
  type Ec2Operation,
  type Handler,
  malformed,
  parse,
} from './request';
import { json, silent, tableOut } from './shapes';

function findTable(state: VpcState, id: string): RouteTable {
  if (!id.startsWith('rtb-')) throw malformed('rtb', id, 'InvalidRouteTableId.Malformed');
  const t = state.routeTable(id);
  if (!t) throw svc('InvalidRouteTableID.NotFound', `The routeTable ID '${id}' does not exist`);
  return t;
}

const describeRouteTables: Handler = (args, state, lab) => {
  const out = describeSelected(args, 'route-table-ids', state.vpc.RouteTables, (id) => findTable(state, id), {
    'route-table-id': (t) => [t.RouteTableId],
    'vpc-id': (t) => [t.VpcId ?? ''],
    'association.main': (t) => [String(t.Associations.some((a) => a.Main === true))],
    'association.subnet-id': (t) => t.Associations.flatMap((a) => (a.SubnetId ? [a.SubnetId] : [])),
    'route.destination-cidr-block': (t) => t.Routes.map((r) => r.DestinationCidrBlock),
    'route.gateway-id': (t) => t.Routes.flatMap((r) => (r.GatewayId ? [r.GatewayId] : [])),
    'owner-id': () => [LAB_ACCOUNT_ID],
  });
  if (!Array.isArray(out)) return out;
  return json({ RouteTables: out.map((t) => tableOut(t, lab.scenario.seed)) });
};

const ROUTE_SPECS: Record<string, ParamSpec> = {
  'route-table-id': { kind: 'string', required: true },
  'destination-cidr-block': { kind: 'string' },
  'gateway-id': { kind: 'string' },
  'nat-gateway-id': { kind: 'string' },
  'network-interface-id': { kind: 'string' },
  'instance-id': { kind: 'string' },
  'destination-ipv6-cidr-block': { kind: 'string' },
};

function routeOp(mode: 'create' | 'replace' | 'delete'): Handler {
  return (args, state, _lab, opName) => {
    const specs =
      mode === 'delete'
        ? {
            'route-table-id': ROUTE_SPECS['route-table-id']!,
            'destination-cidr-block': ROUTE_SPECS['destination-cidr-block']!,
            'destination-ipv6-cidr-block': ROUTE_SPECS['destination-ipv6-cidr-block']!,
          }
        : ROUTE_SPECS;
    const p = parse(args, specs);
    if (isOut(p)) return p;
    const v = p.values;
    if (v.has('destination-ipv6-cidr-block'))
      return fail('aws: IPv6 routes are not simulated in ec2-netlab', AWS_EXIT.usage);
    const t = findTable(state, v.get('route-table-id') as string);
    const dest = v.get('destination-cidr-block') as string | undefined;
    if (dest === undefined)
      throw svc(
        'MissingParameter',
        'The request must contain the parameter destinationCidrBlock or destinationIpv6CidrBlock',
      );
    if (parseCidr(dest) === null)
      throw svc(
        'InvalidParameterValue',
        `Value (${dest}) for parameter destinationCidrBlock is invalid. This is not a valid CIDR block.`,
      );
    const next = structuredClone(state.vpc) as Vpc;
    const table = next.RouteTables.find((x) => x.RouteTableId === t.RouteTableId)!;
    const idx = table.Routes.findIndex((r) => r.DestinationCidrBlock === dest);
    if (mode === 'delete') {
      if (idx < 0)
        throw svc(
          'InvalidRoute.NotFound',
          `no route with destination-cidr-block ${dest} in route table ${t.RouteTableId}`,
        );
      if (table.Routes[idx]!.GatewayId === 'local')
        throw svc(
          'InvalidParameterValue',
          `cannot remove local route ${dest} in route table ${t.RouteTableId}`,
        );
      dryRun(p);
      table.Routes.splice(idx, 1);
      commit(state, next, 'route-table', t.RouteTableId, opName);
      return silent();
    }
    // --instance-id: the instance's interface, when it has exactly one (the API's rule)
    if (v.has('instance-id')) {
      const iid = v.get('instance-id') as string;
      if (!iid.startsWith('i-')) throw malformed('i', iid, 'InvalidInstanceID.Malformed');
      const primary = state.enis.find((e) => e.instanceId === iid && e.deviceIndex === 0);
      if (!primary) throw svc('InvalidInstanceID.NotFound', `The instance ID '${iid}' does not exist`);
      if (state.enisOfInstance(primary.instanceName).length > 1)
        throw svc(
          'InvalidInstanceID',
          `There are multiple interfaces attached to instance '${iid}'. Please specify an interface ID for the operation instead.`,
        );
      if (v.has('network-interface-id') || v.has('gateway-id') || v.has('nat-gateway-id'))
        throw svc(
          'InvalidParameterCombination',
          'The request must contain exactly one of gatewayId, natGatewayId, networkInterfaceId, instanceId',
        );
      v.set('network-interface-id', primary.eniId);
    }
    const targets = (['gateway-id', 'nat-gateway-id', 'network-interface-id'] as const).filter((k) =>
      v.has(k),
    );
    if (targets.length !== 1)
      throw svc(
        targets.length === 0 ? 'MissingParameter' : 'InvalidParameterCombination',
        targets.length === 0
          ? 'The request must contain exactly one of gatewayId, natGatewayId, networkInterfaceId'
          : 'The request must contain exactly one of gatewayId, natGatewayId, networkInterfaceId',
      );
    const route: Route = { DestinationCidrBlock: dest, State: 'active', Origin: 'CreateRoute' };
    const target = v.get(targets[0]!) as string;
    if (targets[0] === 'gateway-id') {
      if (!state.vpc.InternetGateways.some((g) => g.InternetGatewayId === target))
        throw svc('InvalidGatewayID.NotFound', `The gateway ID '${target}' does not exist`);
      route.GatewayId = target;
      const c = parseCidr(dest)!;
      const vpcC = parseCidr(state.vpc.CidrBlock)!;
      if (
        dest !== state.vpc.CidrBlock &&
        c.prefix >= vpcC.prefix &&
        (c.network & (vpcC.prefix === 0 ? 0 : (0xffffffff << (32 - vpcC.prefix)) >>> 0)) >>> 0 ===
          vpcC.network
      )
        throw svc(
          'InvalidParameterValue',
          `The destination CIDR block ${dest} is equal to or more specific than one of this VPC's CIDR blocks. This route can target only an interface or an instance.`,
        );
    } else if (targets[0] === 'nat-gateway-id') {
      throw svc('InvalidNatGatewayID.NotFound', `The natGateway ID '${target}' does not exist`);
    } else {
      if (!isResourceId('eni', target) && !target.startsWith('eni-'))
        throw malformed('eni', target, 'InvalidNetworkInterfaceID.Malformed');
      if (!state.eniById(target))
        throw svc('InvalidNetworkInterfaceID.NotFound', `The networkInterface ID '${target}' does not exist`);
      route.NetworkInterfaceId = target;
    }
    if (mode === 'create') {
      if (idx >= 0) throw svc('RouteAlreadyExists', `The route identified by ${dest} already exists.`);
      dryRun(p);
      table.Routes.push(route);
      commit(state, next, 'route-table', t.RouteTableId, opName);
      return json({ Return: true });
    }
    if (idx < 0)
      throw svc(
        'InvalidParameterValue',
        `There is no route defined for '${dest}' in the route table. Use CreateRoute instead.`,
      );
    if (table.Routes[idx]!.GatewayId === 'local')
      throw svc(
        'InvalidParameterValue',
        `cannot replace local route ${dest} in route table ${t.RouteTableId} (middlebox routing is not simulated in ec2-netlab)`,
      );
    dryRun(p);
    table.Routes[idx] = { ...route, Origin: table.Routes[idx]!.Origin };
    commit(state, next, 'route-table', t.RouteTableId, opName);
    return silent();
  };
}

export const routeTableOperations: Record<string, Ec2Operation> = {
  'describe-route-tables': { api: 'DescribeRouteTables', run: describeRouteTables },
  'create-route': { api: 'CreateRoute', run: routeOp('create') },
  'replace-route': { api: 'ReplaceRoute', run: routeOp('replace') },
  'delete-route': { api: 'DeleteRoute', run: routeOp('delete') },
};
