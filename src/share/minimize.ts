/**
 * The smallest scenario document that parses back to a given Scenario, and JSON merge patches
 * (RFC 7386) between documents: what the codec puts in a link.
 *
 * A parsed Scenario is complete (every seed-derived default written out: the VPC, IDs, addresses).
 * minimizeScenario leaves out every field equal to what parseScenario would fill in, so a link
 * carries only what the user changed. Guarantee: parseScenario(minimizeScenario(s)) is s (the
 * codec checks it on every encode and falls back to the complete document if it ever is not).
 */
import {
  DEFAULT_SETTINGS,
  parseScenario,
  SCENARIO_VERSION,
  type Scenario,
  type ScenarioInstance,
} from '../scenario/schema';
import { completeVpc, defaultVpc, formatIpv4, parseCidr, resourceId, type Vpc } from '../scenario/vpc';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonObj = { [k: string]: Json };

const isObj = (v: unknown): v is JsonObj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** JSON with object keys sorted and undefined dropped: equal documents give equal strings. */
export function canonicalJson(v: unknown): string {
  return JSON.stringify(v, (_k, val: unknown) => {
    if (!isObj(val)) return val;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(val).sort()) out[k] = val[k];
    return out;
  });
}

const same = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);
const toJson = (v: unknown): JsonObj => JSON.parse(JSON.stringify(v)) as JsonObj;

const DEFAULT_ENA_SRD = { EnaSrdEnabled: false, EnaSrdUdpSpecification: { EnaSrdUdpEnabled: false } };

/** Drop what the VPC schema and completeVpc fill in (back-references, empty lists, defaults). */
function minimizeVpc(vpc: Vpc): JsonObj {
  const v = toJson(vpc);
  const id = vpc.VpcId;
  const dropIf = (o: Json | undefined, key: string, pred: (x: Json | undefined) => boolean) => {
    if (isObj(o) && key in o && pred(o[key])) delete o[key];
  };
  const empty = (x: Json | undefined) => Array.isArray(x) && x.length === 0;
  const isId = (x: Json | undefined) => x === id;
  const each = (list: Json | undefined, f: (o: JsonObj) => void) => {
    if (Array.isArray(list)) for (const o of list) if (isObj(o)) f(o);
  };
  each(v['Subnets'], (s) => dropIf(s, 'VpcId', isId));
  each(v['SecurityGroups'], (g) => {
    dropIf(g, 'VpcId', isId);
    dropIf(g, 'Description', (x) => x === '');
    for (const dir of ['IpPermissions', 'IpPermissionsEgress']) {
      each(g[dir], (p) => {
        for (const k of ['IpRanges', 'Ipv6Ranges', 'PrefixListIds', 'UserIdGroupPairs']) dropIf(p, k, empty);
      });
      dropIf(g, dir, empty);
    }
  });
  each(v['NetworkAcls'], (a) => {
    dropIf(a, 'VpcId', isId);
    dropIf(a, 'IsDefault', (x) => x === false);
    dropIf(a, 'Associations', empty);
    dropIf(a, 'Entries', empty);
  });
  each(v['InternetGateways'], (g) => {
    each(g['Attachments'], (at) => {
      dropIf(at, 'VpcId', isId);
      dropIf(at, 'State', (x) => x === 'available');
    });
    dropIf(g, 'Attachments', empty);
  });
  dropIf(v, 'InternetGateways', empty);
  each(v['RouteTables'], (t) => {
    dropIf(t, 'VpcId', isId);
    const routes = t['Routes'];
    // completeVpc puts the local route first when a table has none
    if (Array.isArray(routes) && isObj(routes[0]) && routes[0]['GatewayId'] === 'local') {
      const r = routes[0];
      if (
        r['DestinationCidrBlock'] === vpc.CidrBlock &&
        r['Origin'] === 'CreateRouteTable' &&
        r['State'] === 'active' &&
        !routes.slice(1).some((x) => isObj(x) && x['GatewayId'] === 'local')
      ) {
        routes.shift();
      }
    }
    each(routes, (r) => {
      dropIf(r, 'State', (x) => x === 'active');
      dropIf(r, 'Origin', (x) => x === 'CreateRoute');
    });
    dropIf(t, 'Routes', empty);
    dropIf(t, 'Associations', empty);
  });
  return v;
}

/** The scenario as the shortest document (without `version`) that parses back to it. */
export function minimizeScenario(s: Scenario): JsonObj {
  const doc: JsonObj = {};
  if (s.seed !== 1) doc['seed'] = s.seed;
  if (s.placement !== 'cluster') doc['placement'] = s.placement;
  const vpcIsDefault = same(s.vpc, completeVpc(defaultVpc(s.seed)));
  const vpc = s.vpc;
  const firstSubnet = vpc.Subnets[0]!;
  const defaultGroup = vpc.SecurityGroups.find((g) => g.GroupName === 'default') ?? vpc.SecurityGroups[0]!;
  const instances = s.instances.map((inst: ScenarioInstance, i) => {
    const o: JsonObj = { name: inst.name, type: inst.type };
    const subnet = vpc.Subnets.find((x) => x.SubnetId === inst.subnet) ?? firstSubnet;
    const base = parseCidr(subnet.CidrBlock)?.network ?? 0;
    if (inst.ip !== formatIpv4(base + 10 + i)) o['ip'] = inst.ip;
    if (inst.secondaryIps.length > 0) o['secondaryIps'] = inst.secondaryIps;
    if (inst.subnet !== firstSubnet.SubnetId) o['subnet'] = inst.subnet;
    if (!same(inst.securityGroups, [defaultGroup.GroupId])) o['securityGroups'] = inst.securityGroups;
    if (!same(inst.enaSrd, DEFAULT_ENA_SRD)) o['enaSrd'] = toJson(inst.enaSrd);
    if (Object.keys(toJson(inst.connectionTracking)).length > 0)
      o['connectionTracking'] = toJson(inst.connectionTracking);
    if (inst.instanceId !== resourceId('i', s.seed, `instance/${inst.name}`))
      o['instanceId'] = inst.instanceId;
    if (inst.eniId !== resourceId('eni', s.seed, `eni/${inst.name}`)) o['eniId'] = inst.eniId;
    if (inst.sourceDestCheck === false) o['sourceDestCheck'] = false;
    // secondary interfaces: written whole but for defaults (their default address depends on the
    // order, so it is kept)
    if (inst.networkInterfaces !== undefined && inst.networkInterfaces.length > 0)
      o['networkInterfaces'] = inst.networkInterfaces.map((n) => {
        const x: JsonObj = { deviceIndex: n.deviceIndex, ip: n.ip };
        if (n.secondaryIps.length > 0) x['secondaryIps'] = n.secondaryIps;
        if (n.subnet !== inst.subnet) x['subnet'] = n.subnet;
        if (!same(n.securityGroups, [defaultGroup.GroupId])) x['securityGroups'] = n.securityGroups;
        if (n.eniId !== resourceId('eni', s.seed, `eni/${inst.name}/${n.deviceIndex}`)) x['eniId'] = n.eniId;
        if (n.description !== '') x['description'] = n.description;
        if (!n.sourceDestCheck) x['sourceDestCheck'] = false;
        return x;
      });
    return o;
  });
  const defaultInstances = [
    { name: 'client', type: 'c7i.large' },
    { name: 'server', type: 'c7i.large' },
  ];
  if (!same(instances, defaultInstances)) doc['instances'] = instances;
  const settings: JsonObj = {};
  for (const k of Object.keys(DEFAULT_SETTINGS) as Array<keyof typeof DEFAULT_SETTINGS>) {
    if (s.settings[k] !== DEFAULT_SETTINGS[k]) settings[k] = s.settings[k];
  }
  if (Object.keys(settings).length > 0) doc['settings'] = settings;
  if (Object.keys(s.params).length > 0) doc['params'] = toJson(s.params);
  if (s.script.length > 0) doc['script'] = [...s.script];
  if (!vpcIsDefault) doc['vpc'] = minimizeVpc(vpc);
  if (s.client) {
    const c: JsonObj = {};
    if (s.client.name !== 'internet-client') c['name'] = s.client.name;
    if (s.client.ip !== '203.0.113.1') c['ip'] = s.client.ip;
    doc['client'] = c;
  }
  if (s.session !== undefined) doc['session'] = JSON.parse(JSON.stringify(s.session)) as Json[];
  return doc;
}

/** minimizeScenario, checked: the complete document when the minimal one would not parse back to s. */
export function scenarioDocument(s: Scenario): JsonObj {
  const min = minimizeScenario(s);
  const back = parseScenario({ ...min, version: SCENARIO_VERSION });
  if (back.ok && same(back.scenario, s)) return min;
  const { version: _v, ...full } = toJson(s);
  return full;
}

/** RFC 7386 merge patch turning `base` into `target` (documents without null values). */
export function mergeDiff(base: Json, target: Json): Json {
  if (!isObj(base) || !isObj(target)) return target;
  const patch: JsonObj = {};
  for (const k of Object.keys(base)) if (!Object.hasOwn(target, k)) patch[k] = null;
  for (const k of Object.keys(target)) {
    const t = target[k]!;
    if (!Object.hasOwn(base, k)) patch[k] = t;
    else if (!same(base[k], t)) patch[k] = isObj(base[k]) && isObj(t) ? mergeDiff(base[k]!, t) : t;
  }
  return patch;
}

/** RFC 7386 apply. Never mutates its arguments; skips `__proto__` keys. */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObj(patch)) return patch;
  const out: Record<string, unknown> = isObj(target) ? { ...target } : {};
  for (const k of Object.keys(patch)) {
    if (k === '__proto__') continue;
    const v = patch[k];
    if (v === null) delete out[k];
    else out[k] = applyMergePatch(out[k], v);
  }
  return out;
}

export type { Json, JsonObj };
