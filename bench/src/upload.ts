// 250 MiB upload through the BFF vs straight to the API: time ratio, and the BFF's resident memory
// growth while the bytes stream through it (sampled from /proc/<pid>/status every 10 ms).
import { MAX_UPLOAD_BYTES } from '@wsc/api-client';

import type { Bench, BenchContext } from './lib/bench.ts';
import type { Section } from './lib/report.ts';
import { fetchToken } from './lib/api.ts';
import { keepAliveAgent } from './lib/http.ts';
import { readMemory, sampleMemory } from './lib/processes.ts';
import { machineInfo } from './lib/report.ts';
import { bffHeaders, bffLogin, startBff, startFreshApi } from './lib/stack.ts';
import { formatMiB, formatMs } from './lib/stats.ts';
import { multipartBody, sendUpload } from './lib/upload-body.ts';

const ROUNDS = 3;
const GROWTH_BUDGET = 64 * 1024 * 1024;

async function run(ctx: BenchContext): Promise<Section> {
  const fileBytes = Number(process.env.BENCH_UPLOAD_BYTES ?? MAX_UPLOAD_BYTES);
  const fresh = await startFreshApi('upload-api');
  const agent = keepAliveAgent(2);
  try {
    const bff = await startBff('upload-bff', fresh.api.url);
    try {
      const token = await fetchToken(agent, fresh.api.url, fresh.credentials.admin);
      const cookie = await bffLogin(agent, bff.url, fresh.credentials.admin);
      const path = '/v1/apps/support-tickets/SUP-1/attachments';
      const body = multipartBody(fileBytes, 'bench-250mib.bin');
      const upload = async (via: 'direct' | 'bff') => {
        const result =
          via === 'direct'
            ? await sendUpload(`${fresh.api.url}${path}`, body, {
                Authorization: `Bearer ${token}`,
              })
            : await sendUpload(`${bff.url}/api${path}`, body, bffHeaders(cookie, bff.url));
        if (result.status !== 202)
          throw new Error(`upload ${via}: ${result.status} ${result.reply.slice(0, 300)}`);
        return result.ms;
      };
      // Warm-up with a small file on both paths (code paths compiled, pools open).
      const small = multipartBody(1024 * 1024, 'warm.bin');
      await sendUpload(`${fresh.api.url}${path}`, small, { Authorization: `Bearer ${token}` });
      await sendUpload(`${bff.url}/api${path}`, small, bffHeaders(cookie, bff.url));

      const baseline = await readMemory(bff.pid);
      const direct: number[] = [];
      const viaBff: number[] = [];
      let peakRss = 0;
      for (let round = 0; round < ROUNDS; round += 1) {
        direct.push(await upload('direct'));
        const sampler = sampleMemory(bff.pid, 10);
        viaBff.push(await upload('bff'));
        const sampled = await sampler.stop();
        peakRss = Math.max(peakRss, sampled.peakRss);
        ctx.log(
          `upload round ${round + 1}: direct ${formatMs(direct.at(-1) ?? 0)}, BFF ${formatMs(viaBff.at(-1) ?? 0)}, BFF peak RSS ${formatMiB(sampled.peakRss)}`,
        );
      }
      const end = await readMemory(bff.pid);
      const growth = Math.max(0, peakRss - baseline.rss);
      const best = (list: number[]) => Math.min(...list);
      const ratio = best(viaBff) / best(direct);
      const mib = fileBytes / 1024 / 1024;
      return {
        id: 'upload',
        title: `${mib.toFixed(0)} MiB upload through the BFF`,
        command: ctx.command,
        date: new Date(),
        machine: machineInfo(),
        figures: [
          {
            name: 'BFF RSS growth during the upload (peak sampled - baseline)',
            value: formatMiB(growth),
            budget: '<= 64 MiB',
            pass: growth <= GROWTH_BUDGET,
          },
          {
            name: 'upload time through the BFF / direct (best of each)',
            value: `${ratio.toFixed(2)}x`,
            budget: '<= 1.15x',
            pass: ratio <= 1.15,
          },
          { name: 'direct upload times', value: direct.map((ms) => formatMs(ms)).join(', ') },
          { name: 'through-BFF upload times', value: viaBff.map((ms) => formatMs(ms)).join(', ') },
          {
            name: 'BFF RSS baseline / peak / after; VmHWM after',
            value: `${formatMiB(baseline.rss)} / ${formatMiB(peakRss)} / ${formatMiB(end.rss)}; ${formatMiB(end.hwm)}`,
          },
        ],
        notes: [
          `Method: one ${fileBytes.toLocaleString('en')}-byte file (the API's maximum, MAX_UPLOAD_BYTES) in a multipart body with Content-Length, generated on the fly, POSTed to \`${path}\` directly (bearer token) and through the BFF (\`/api${path}\`, session cookie, X-CSRF), ${ROUNDS} alternating rounds; the API streams it to its blob folder and answers 202. Time is from the first byte sent to the end of the reply; the ratio compares the best time of each side (the least disturbed by other work on the shared machine). BFF memory: VmRSS from /proc every 10 ms during each BFF upload, against the VmRSS just before the first one.`,
        ],
      };
    } finally {
      await bff.stop();
    }
  } finally {
    agent.destroy();
    await fresh.stop();
  }
}

export const uploadBench: Bench = { id: 'upload', title: 'Upload through the BFF', run };
