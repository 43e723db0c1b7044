/**
 * `aws ec2 …`: the AWS CLI v2 on the lab's VPC control plane (engine/vpc/state.ts), a modelled
 * subset of EC2 operations, one file per resource family; anything else is refused as "not
 * simulated". A failing command changes nothing; a successful mutation changes VpcState at the
 * current instant, bumps its mutationEpoch and is logged; output is a pure function of the state.
 * Sources: awscli clidriver.py; the EC2 API reference.
 */
import type { Lab } from '../../../lab/lab';
import { vpcState } from '../../../vpc/state';
import { type CommandOutcome, fail } from '../../types';
import { addressOperations } from './addresses';
import { AWS_EXIT, callOperation, usage } from './cli';
import { instanceAttributeOperations } from './instance-attributes';
import { instanceOperations } from './instances';
import { networkAclOperations } from './network-acls';
import { networkInterfaceOperations } from './network-interfaces';
import type { Ec2Operation } from './request';
import { routeTableOperations } from './route-tables';
import { securityGroupOperations } from './security-groups';
import { subnetOperations } from './subnets';

/** Operations modelled, by kebab-case CLI name (this order is the one the CLI's refusal lists). */
const OPERATIONS: Record<string, Ec2Operation> = {
  ...securityGroupOperations,
  ...networkAclOperations,
  ...routeTableOperations,
  ...subnetOperations,
  ...networkInterfaceOperations,
  ...instanceOperations,
  ...addressOperations,
  ...instanceAttributeOperations,
};

/** The operations modelled (for completion). */
export const AWS_EC2_OPERATIONS: readonly string[] = Object.keys(OPERATIONS);

export function runEc2(op: string | undefined, args: string[], lab: Lab): CommandOutcome {
  if (op === undefined) return usage('the following arguments are required: operation');
  const operation = Object.hasOwn(OPERATIONS, op) ? OPERATIONS[op] : undefined;
  if (!operation)
    return fail(
      `aws: ec2 ${op} is not simulated in ec2-netlab (modelled: ${AWS_EC2_OPERATIONS.join(', ')})`,
      AWS_EXIT.usage,
    );
  const state = vpcState(lab);
  return callOperation(operation.api, () => operation.run(args, state, lab, operation.api));
}
