/**
 * The stage's columns follow the lab: three instances or more (a router between two) mark the
 * workbench so styles.css gives the path column more of the width; two leave the charts the widest.
 */
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { createAppStore, patch } from '../../src/state/app-store';
import { App } from '../../src/ui/app';
import { recordingLab } from './fake-lab';
import { mount } from './mount';

let el: HTMLDivElement | null = null;

const host = (name: string, i: number) => ({
  name,
  type: 'c5n.9xlarge',
  ip: `10.0.0.${10 + i}`,
  ppsAllowance: 1e6,
  ppsAllowanceProvenance: 'measured' as const,
});

describe('the workbench and the number of instances', () => {
  it('two instances: no mark; three: marked for a wider path column', () => {
    const store = createAppStore({ presetId: 'exp1', doc: {} });
    patch(store, 'scenario', { loading: false, instances: ['client', 'server'].map(host) });
    el = mount(<App welcomeStorage={null} pathView={<div />} />, { store, lab: recordingLab([]) });
    const mark = () => el!.querySelector('main.workbench')!.getAttribute('data-many-hosts');
    expect(mark()).toBeNull();
    act(() => patch(store, 'scenario', { instances: ['sender', 'router', 'sink'].map(host) }));
    expect(mark()).toBe('1');
  });
});
