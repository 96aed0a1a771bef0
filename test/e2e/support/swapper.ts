import { ChildProcess, spawn } from 'node:child_process';

/**
 * A second process that swaps `dir` (a directory under an allowed root) with a symlink to
 * `target` (a directory outside it), over and over, as a local attacker would while a request
 * reads `dir/...`. `stop()` ends it and resolves with the number of swaps it made.
 */
export function startSwapper(dir: string, target: string): { stop(): Promise<number> } {
  const script = `
    const fs = require('node:fs');
    const [dir, target] = process.argv.slice(1);
    const parked = dir + '.parked';
    let swaps = 0, running = true;
    process.on('message', () => { running = false; });
    const round = () => {
      for (let i = 0; i < 200 && running; i++) {
        fs.renameSync(dir, parked);
        fs.symlinkSync(target, dir);
        fs.unlinkSync(dir);
        fs.renameSync(parked, dir);
        swaps++;
      }
      if (running) setImmediate(round);
      else process.send(swaps, () => process.exit(0));
    };
    round();
  `;
  const child: ChildProcess = spawn(process.execPath, ['-e', script, dir, target], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return {
    stop: () =>
      new Promise<number>((resolve, reject) => {
        child.once('message', (swaps) => resolve(swaps as number));
        child.once('exit', (code) => code !== 0 && reject(new Error(`the swapper exited with ${code}`)));
        child.send('stop');
      }),
  };
}
