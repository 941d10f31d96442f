import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activateExtension, type LocalPlatformUrls } from '../support/editor/extension';

async function health(origin: string): Promise<{ ok: boolean; pid: number }> {
  const res = await fetch(`${origin}/_local/health`);
  assert.equal(res.status, 200);
  return (await res.json()) as { ok: boolean; pid: number };
}

/** Whether a process with this id runs on this machine. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

suite('Local platform commands', () => {
  suiteSetup(async () => {
    await activateExtension();
  });

  teardown(async () => {
    await vscode.commands.executeCommand('agentWorkbench.stopLocalPlatform');
  });

  test('Start Local Platform starts a platform that answers on loopback, in a process of its own', async () => {
    const urls = await vscode.commands.executeCommand<LocalPlatformUrls | undefined>(
      'agentWorkbench.startLocalPlatform',
    );
    assert.ok(urls, 'the command returns the addresses of the platform');
    assert.match(urls.origin, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(urls.runtime, `${urls.origin}/runtime`);
    assert.equal(urls.build, `${urls.origin}/build`);
    assert.equal(urls.messaging, `${urls.origin}/messaging`);
    const { ok, pid } = await health(urls.origin);
    assert.equal(ok, true);
    assert.notEqual(pid, process.pid, 'the platform runs in a process of its own, not in the extension host');
  });

  test('starting twice returns the running platform', async () => {
    const first = await vscode.commands.executeCommand<LocalPlatformUrls>('agentWorkbench.startLocalPlatform');
    const second = await vscode.commands.executeCommand<LocalPlatformUrls>('agentWorkbench.startLocalPlatform');
    assert.equal(second.origin, first.origin);
  });

  test('Stop Local Platform stops it: the port no longer answers', async () => {
    const urls = await vscode.commands.executeCommand<LocalPlatformUrls>('agentWorkbench.startLocalPlatform');
    await health(urls.origin);
    const { pid } = await health(urls.origin);
    await vscode.commands.executeCommand('agentWorkbench.stopLocalPlatform');
    await assert.rejects(fetch(`${urls.origin}/_local/health`), 'the stopped platform still answers');
    assert.equal(alive(pid), false, 'its process ended');
  });
});
