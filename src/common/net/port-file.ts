import { Logger } from '@nestjs/common';
import { mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * The Pieces port file (AppConfig.portFile): the port this instance listens on, as the only
 * content, for the clients that read it before scanning ports (Obsidian, Raycast, the C# SDK; they
 * also watch it). Written once listening, atomically (a temporary file renamed over it, so a
 * reader never sees it half written); removed on a clean exit only if it still names this port
 * (another instance may have written its own since). A file that cannot be written is logged:
 * the clients then find the instance by scanning, as without the file.
 */
export class PortFile {
  private readonly logger = new Logger('Discovery');
  private written: string | null = null;

  constructor(private readonly path: string | null) {}

  write(port: number): void {
    if (!this.path) return;
    const temporary = `${this.path}.${process.pid}.tmp`;
    try {
      mkdirSync(dirname(this.path), { recursive: true });
      writeFileSync(temporary, String(port));
      renameSync(temporary, this.path);
      this.written = String(port);
      this.logger.log(`port file ${this.path} names port ${port}`);
    } catch (error) {
      this.logger.warn(`cannot write the port file ${this.path}: ${(error as Error).message}`);
      try {
        unlinkSync(temporary);
      } catch {
        // nothing was left
      }
    }
  }

  remove(): void {
    if (!this.path || this.written === null) return;
    const port = this.written;
    this.written = null;
    try {
      if (readFileSync(this.path, 'utf8').trim() !== port) return; // another instance's now
      unlinkSync(this.path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        this.logger.warn(`cannot remove the port file ${this.path}: ${(error as Error).message}`);
    }
  }
}
