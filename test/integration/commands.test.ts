import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activateExtension, type LocalPlatformUrls } from './support';

async function health(origin: string): Promise<{ ok: boolean }> {
  const res = await fetch(`${origin}/_local/health`);
  assert.equal(res.status, 200);
  return (await res.json()) as { ok: boolean };
}

/** Child processes of the extension host. */
const processes = (): number => process.getActiveResourcesInfo().filter((kind) => kind === 'ProcessWrap').length;

/** The count once the handles of processes that just ended are closed (Node closes them a moment after `exit`). */
async function settledProcesses(): Promise<number> {
  let last = processes();
  for (let i = 0; i < 20; i++) {
    await new Promise((r) => setTimeout(r, 50));
    const now = processes();
    if (now === last) return now;
    last = now;
  }
  return last;
}

suite('Local platform commands', () => {
  suiteSetup(async () => {
    await activateExtension();
  });

  teardown(async () => {
    await vscode.commands.executeCommand('agentWorkbench.stopLocalPlatform');
  });

  test('Start Local Platform starts a platform that answers on loopback, in a process of its own', async () => {
    await vscode.commands.executeCommand('agentWorkbench.stopLocalPlatform');
    const before = await settledProcesses();
    const urls = await vscode.commands.executeCommand<LocalPlatformUrls | undefined>('agentWorkbench.startLocalPlatform');
    assert.equal(processes(), before + 1, 'the platform runs in a child process, not in the extension host');
    assert.ok(urls, 'the command returns the addresses of the platform');
    assert.match(urls.origin, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(urls.runtime, `${urls.origin}/runtime`);
    assert.equal(urls.build, `${urls.origin}/build`);
    assert.equal(urls.messaging, `${urls.origin}/messaging`);
    assert.deepEqual((await health(urls.origin)).ok, true);
  });

  test('starting twice returns the running platform', async () => {
    const first = await vscode.commands.executeCommand<LocalPlatformUrls>('agentWorkbench.startLocalPlatform');
    const second = await vscode.commands.executeCommand<LocalPlatformUrls>('agentWorkbench.startLocalPlatform');
    assert.equal(second.origin, first.origin);
  });

  test('Stop Local Platform stops it: the port no longer answers', async () => {
    const urls = await vscode.commands.executeCommand<LocalPlatformUrls>('agentWorkbench.startLocalPlatform');
    await health(urls.origin);
    const running = await settledProcesses();
    await vscode.commands.executeCommand('agentWorkbench.stopLocalPlatform');
    await assert.rejects(fetch(`${urls.origin}/_local/health`), 'the stopped platform still answers');
    assert.equal(await settledProcesses(), running - 1, 'its process ended');
  });
});
