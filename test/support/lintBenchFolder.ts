// The agent folder the benchmarks of the checks use: 1,000 topics of distinct text and a 100 KB behavior.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const WORDS =
  'store order return refund delivery parcel receipt warranty exchange voucher account password card payment invoice hours holiday branch staff parking accessible pickup collect courier tracking damaged missing replacement size colour stock reserve loyalty points member discount coupon sale price label gift wrap'.split(
    ' ',
  );

/** Deterministic words: the same folder on every run, with no two topics alike. */
export function prose(seed: number, words: number): string {
  let x = seed * 2654435761;
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    // The high bits: the low bits of this generator repeat after a few steps.
    out.push(WORDS[(x >>> 16) % WORDS.length]!);
    if (i % 12 === 11) out.push('.\n');
  }
  return out.join(' ');
}

/** A behavior of about `bytes` bytes, of instructions as a builder writes them. */
export function behaviorOf(bytes: number): string {
  const lines = [
    'You are Sam, the support agent of Acme stores. Be brief and friendly.',
    '- When a caller asks about an order, look it up with the order tool and read back its status.',
    '- Never promise a delivery date; offer to send the tracking link instead.',
    '- If the caller is upset, acknowledge it and offer a call back from a person.',
  ];
  let text = '';
  for (let i = 0; text.length < bytes; i++) text += `${lines[i % lines.length]} (${i})\n`;
  return text.slice(0, bytes);
}

/** Writes an agent folder of `topics` topics (about 150 words each) and a behavior of `behaviorBytes`. */
export async function writeBenchFolder(folder: string, topics = 1000, behaviorBytes = 100_000): Promise<void> {
  await mkdir(join(folder, 'knowledge'), { recursive: true });
  await mkdir(join(folder, 'realtime'), { recursive: true });
  await writeFile(
    join(folder, 'agent.json'),
    JSON.stringify({
      agentId: 'ag_bench',
      name: 'Bench',
      profile: 'local',
      branch: { branchId: 'br_main', name: 'main' },
    }),
  );
  await writeFile(join(folder, 'behavior.md'), behaviorOf(behaviorBytes));
  await writeFile(join(folder, 'realtime', 'store-settings.json'), '{\n  "holidayMode": false\n}\n');
  for (let i = 0; i < topics; i++)
    await writeFile(
      join(folder, 'knowledge', `topic-${String(i).padStart(4, '0')}.md`),
      `---\nname: Topic ${i}\n---\n\n${prose(i + 1, 150)}\n`,
    );
}
