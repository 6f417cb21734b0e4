/** Child processes of the subscription and soak benchmarks, each talking to the bench over IPC. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchEnv, serviceArgs } from '../support.js';
import type { ProbeMemory, ProbeRequest } from './probe.js';

const here = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(here, '../..');

/** Request/answer over a child's IPC channel, matched by id. */
export class Ipc {
  private next = 1;
  private readonly pending = new Map<number, (m: Record<string, unknown>) => void>();

  constructor(readonly child: ChildProcess) {
    // A child that died is reported by `ask`, never as an unhandled 'error' that skips the bench's clean-up.
    child.on('error', () => undefined);
    child.on('message', (m: { id: number }) => {
      const resolve = this.pending.get(m.id);
      this.pending.delete(m.id);
      resolve?.(m as Record<string, unknown>);
    });
  }

  ask<T>(request: Record<string, unknown>): Promise<T> {
    const id = this.next++;
    if (!this.child.connected) return Promise.reject(new Error(`process ${this.child.pid} is gone (exit code ${this.child.exitCode}, signal ${this.child.signalCode})`));
    return new Promise<T>((resolve, reject) => {
      const exited = () => reject(new Error(`process ${this.child.pid} exited while asked ${JSON.stringify(request).slice(0, 80)}`));
      this.child.once('exit', exited);
      this.pending.set(id, (m) => {
        this.child.off('exit', exited);
        resolve(m as T);
      });
      this.child.send({ ...request, id });
    });
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((r) => this.child.once('exit', r));
    this.child.kill('SIGTERM');
    await exited;
  }
}

/** What a service logged on stderr at warn (40) and error (50) or above, and anything not JSON (a crash). */
export type Logged = { warn: number; error: number; samples: string[] };

export type Service = Ipc & { baseUrl: string; logged: Logged; memory: () => Promise<ProbeMemory>; peek: () => Promise<ProbeMemory>; snapshot: (file: string) => Promise<string> };

/**
 * `node --expose-gc --import bench/subscriptions/probe.ts dist/main.mjs --role <role>` (the bundle `npm start` runs):
 * the service's own entry point, with the probe answering memory questions. Its stdout is read for
 * the port, then drained.
 */
export async function startService(role: 'api' | 'worker', databaseUrl: string, env: Record<string, string> = {}): Promise<Service> {
  const child = spawn(process.execPath, [...serviceArgs(['--expose-gc', '--import', path.join(here, 'probe.ts')]), '--role', role], {
    cwd: ROOT,
    env: { ...process.env, ...benchEnv(databaseUrl, env) },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const logged: Logged = { warn: 0, error: 0, samples: [] };
  let partial = '';
  child.stderr!.on('data', (d: Buffer) => {
    const lines = (partial + d.toString()).split('\n');
    partial = lines.pop()!;
    for (const line of lines) {
      const level = Number(/^\{"level":(\d+)/.exec(line)?.[1] ?? (line.trim() ? 60 : 0));
      if (level < 40) continue;
      if (level >= 50) logged.error++;
      else logged.warn++;
      if (logged.samples.length < 5) logged.samples.push(line.slice(0, 300));
      if (level === 60) process.stderr.write(`${role}: ${line}\n`);
    }
  });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let out = '';
    const onData = (d: Buffer) => {
      out = (out + d.toString()).slice(-10_000);
      const port = /listening on port (\d+)/.exec(out)?.[1];
      if (role === 'api' && port) resolve(`http://127.0.0.1:${port}`);
      if (role === 'worker' && out.includes('worker running')) resolve('');
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${role} exited (${code}) before it ran: ${out}`)));
  });
  child.once('exit', (code, signal) => {
    if (code !== 0 && signal !== 'SIGTERM') process.stderr.write(`${role} process exited unexpectedly (code ${code}, signal ${signal})\n`);
  });
  const ipc = new Ipc(child) as Service;
  ipc.baseUrl = baseUrl;
  ipc.logged = logged;
  ipc.memory = () => ipc.ask<{ memory: ProbeMemory }>({ kind: 'memory' } satisfies Omit<ProbeRequest, 'id'>).then((a) => a.memory);
  ipc.peek = () => ipc.ask<{ memory: ProbeMemory }>({ kind: 'peek' }).then((a) => a.memory);
  ipc.snapshot = (file) => ipc.ask<{ path: string }>({ kind: 'snapshot', path: file }).then((a) => a.path);
  return ipc;
}

/** A bench script in a process of its own with an IPC channel, resolved (with its first message) once it says it is ready. */
export async function startScript(file: string, args: string[] = []): Promise<Ipc & { ready: Record<string, unknown> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.resolve(here, file), ...args], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  child.once('exit', (code, signal) => {
    if (code !== 0 && signal !== 'SIGTERM') process.stderr.write(`${file} exited unexpectedly (code ${code}, signal ${signal})\n`);
  });
  const ready = await new Promise<Record<string, unknown>>((resolve, reject) => {
    child.once('message', (m: Record<string, unknown>) => resolve(m));
    child.once('exit', (code) => reject(new Error(`${file} exited (${code}) before it was ready`)));
  });
  return Object.assign(new Ipc(child), { ready });
}
