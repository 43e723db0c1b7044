/**
 * The catalog's import surface: per-type network specs and VPC-wide limits, every figure tagged
 * documented / measured / assumed with its source. Pure data and pure functions; no engine imports.
 */
export { ENA_EXPRESS_MTU_BYTES, ENA_EXPRESS_SUPPORTED_FAMILIES, enaExpressListed } from './ena-express';
export { assumed, documented, type Figure, isFigure, measured, type Provenance } from './figure';
export {
  type ConntrackTimeouts,
  type CpuTopology,
  cpuTopology,
  effectiveQueueCount,
  getInstanceType,
  INSTANCE_TYPES,
  type InstanceTypeSpec,
  listInstanceTypes,
  type EnhancedNetworking,
  type Hypervisor,
  type NitroGeneration,
  suggestInstanceType,
} from './instance-types';
export {
  CONNTRACK_TIMEOUT_BOUNDS_SECONDS,
  EGRESS_FRAGMENT_PPS_PER_ENI,
  INTERNET_GATEWAY_RULE,
  internetGatewayBandwidthGbps,
  LINK_LOCAL_PPS_PER_ENI,
  MTU_BYTES,
  NITRO_CARD_BANDWIDTH_GBPS,
  PER_FLOW_LIMIT_GBPS,
} from './vpc-limits';
export {
  driverOf,
  enhancedNetworkingOptional,
  IXGBEVF,
  type NetDriver,
  NETFRONT,
  type NetworkPath,
  networkPath,
} from './xen';
export { NETFLIX18_TABLE, netflix18Cell, type Profile, profiledSpec } from './profile-2018';
