// Pool size from the setting, from cores, and from a container CPU quota (fake cgroup dirs).

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { decidePoolSize, readCpuQuota } from '../server/pool/sizing.ts';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function fakeCgroup(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'tessera-cgroup-'));
  dirs.push(root);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), `${content}\n`);
  }
  return root;
}

const size = (cgroupRoot: string, availableParallelism: number, setting: number | null = null, reservedCores = 1, procSelfCgroup: string | null = '0::/\n') =>
  decidePoolSize({ setting, reservedCores, cgroupRoot, availableParallelism, procSelfCgroup });

test('the setting wins over everything', () => {
  const s = size(fakeCgroup({ 'cpu.max': '100000 100000' }), 64, 6);
  assert.equal(s.workers, 6);
  assert.match(s.reason, /setting/);
  assert.equal(s.quotaCpus, 1);
});

test('no quota: available parallelism minus reserved cores, at least 1', () => {
  const none = fakeCgroup({});
  assert.equal(size(none, 8).workers, 7);
  assert.equal(size(none, 8, null, 2).workers, 6);
  assert.equal(size(none, 1).workers, 1);
  assert.equal(size(none, 2, null, 4).workers, 1);
  assert.equal(size(fakeCgroup({ 'cpu.max': 'max 100000' }), 4).workers, 3);
});

test('cgroup v2 cpu.max caps usable cores, fractional quotas round down', () => {
  const two = size(fakeCgroup({ 'cpu.max': '200000 100000' }), 64);
  assert.equal(two.usableCores, 2);
  assert.equal(two.workers, 1);
  assert.match(two.quotaSource, /cpu\.max$/);
  assert.equal(size(fakeCgroup({ 'cpu.max': '350000 100000' }), 64).workers, 2);
  assert.equal(size(fakeCgroup({ 'cpu.max': '50000 100000' }), 64).usableCores, 1);
  assert.equal(size(fakeCgroup({ 'cpu.max': '800000 100000' }), 4).usableCores, 4, 'never above the cores there are');
});

test("cgroup v2: the process's own nested cgroup is read first", () => {
  const root = fakeCgroup({ 'cpu.max': 'max 100000', 'kubepods/pod1/cpu.max': '300000 100000' });
  assert.equal(readCpuQuota(root, '0::/kubepods/pod1\n').cpus, 3);
  assert.equal(readCpuQuota(root, '0::/\n').cpus, null);
});

test('cgroup v1 cfs quota and period', () => {
  assert.equal(size(fakeCgroup({ 'cpu/cpu.cfs_quota_us': '400000', 'cpu/cpu.cfs_period_us': '100000' }), 16, null, 1, null).workers, 3);
  assert.equal(size(fakeCgroup({ 'cpu,cpuacct/cpu.cfs_quota_us': '150000', 'cpu,cpuacct/cpu.cfs_period_us': '100000' }), 16, null, 1, null).usableCores, 1);
  const unlimited = size(fakeCgroup({ 'cpu/cpu.cfs_quota_us': '-1', 'cpu/cpu.cfs_period_us': '100000' }), 6, null, 1, null);
  assert.equal(unlimited.quotaCpus, null);
  assert.equal(unlimited.workers, 5);
});
