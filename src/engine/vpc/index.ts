/**
 * The VPC control plane's import surface for the packet path and the shell: the run-time state
 * (`vpcState(lab)`, mutations, `evaluateFlow`) and the pure rule evaluators.
 */
export * from './rules';
export * from './state';
