import { Logger } from '@nestjs/common';
import * as ws from 'ws';
import type { WebSocket } from 'ws';

/**
 * Every place where Trove goes past the public API of `ws`, and why. The stream hub makes each
 * change frame once and writes the same bytes to every socket of a view, and writes the frames
 * of one tail batch to each socket in one `writev` (docs/PERFORMANCE.md: server CPU per change
 * at 150 changes/s from 7.0 to 3.0 ms). Callers use only these functions;
 * `test/contract/ws-internals.spec.ts` checks each property relied on here against the `ws`
 * that creates Trove's sockets (the one `@nestjs/platform-ws` loads, which may be its own copy)
 * and the one framing them (Trove's own dependency), so an upgrade that changes one fails
 * there, by name. Fix this file (or drop the shortcut it takes), not its callers.
 *
 * What is relied on:
 * - `frameText`: `ws`'s `Sender.frame` (exported at runtime, not in its type definitions)
 *   builds a frame's bytes, as `send` does.
 * - `writePreframed`: a connected `ws` socket keeps its TCP socket in `_socket` and its sender
 *   in `_sender`. With no compression the sender writes a message's frame straight to
 *   `_socket`, except while it is busy (`_state` not 0: compressing, reading a Blob) or has
 *   messages queued (`_queue`), when a frame written past it would overtake them. When idle,
 *   writing the bytes ourselves is therefore what `send` would do. `bufferedAmount` counts what
 *   waits in `_socket`, so bytes written past the sender still count towards a slow reader's
 *   backlog.
 * - `rawSocketOf`: corking `_socket` (the Node socket) turns the frames written to it until it
 *   is uncorked into one `writev`; corked bytes count in `bufferedAmount`.
 *
 * The shape is checked on the first socket (`checkSocket`); if it does not match, the hub
 * falls back to `send` (each socket frames the message again, no corking) and says so once.
 */

/** What a socket's frames are written to: the Node socket under a `ws` socket. */
export interface RawSocket {
  cork(): void;
  uncork(): void;
}

interface Internals {
  _socket?: (RawSocket & { write(data: Buffer): boolean }) | null;
  _sender?: { _state: number; _queue: unknown[] } | null;
}

/** `ws`'s framing function. */
const Sender = (ws as unknown as { Sender: { frame(data: Buffer, options: object): Buffer[] } }).Sender;

/** Whether the sockets have the internals relied on (see `checkSocket`). */
let direct = true;
let checked = false;

/** An unmasked, final text frame (what a server sends), as one buffer. */
export function frameText(text: string): Buffer {
  const list = Sender.frame(Buffer.from(text), { fin: true, rsv1: false, opcode: 1, mask: false, readOnly: false });
  return list.length === 1 ? list[0] : Buffer.concat(list);
}

/**
 * Checks once, on the first connected socket, that `ws` still has the internals relied on;
 * if not, `writePreframed` and `rawSocketOf` step aside for good (and this logs why).
 */
export function checkSocket(socket: WebSocket): void {
  if (checked) return;
  checked = true;
  const internals = socket as unknown as Internals;
  const raw = internals._socket;
  const sender = internals._sender;
  direct =
    typeof raw?.write === 'function' &&
    typeof raw.cork === 'function' &&
    typeof raw.uncork === 'function' &&
    typeof sender?._state === 'number' &&
    Array.isArray(sender._queue);
  if (!direct) {
    new Logger('Streams').warn(
      'ws sockets no longer have the internals the pre-framed writes use (_socket, _sender._state/_queue): frames are sent through ws.send (slower). See src/common/streams/ws-internals.ts and test/contract/ws-internals.spec.ts',
    );
  }
}

/**
 * Writes a frame made by `frameText` straight to the socket's TCP socket when its sender is
 * idle, which is what `socket.send(text)` would write; true when written. False when the frame
 * must go through `socket.send` instead (the sender is busy or has messages queued, or the
 * socket is not connected): the caller then sends the text.
 */
export function writePreframed(socket: WebSocket, framed: Buffer): boolean {
  if (!direct) return false;
  const internals = socket as unknown as Internals;
  const raw = internals._socket;
  const sender = internals._sender;
  if (raw && sender && sender._state === 0 && sender._queue.length === 0) {
    raw.write(framed);
    return true;
  }
  return false;
}

/** The socket's TCP socket, to cork and uncork around a batch of writes (undefined when not connected). */
export function rawSocketOf(socket: WebSocket): RawSocket | undefined {
  return direct ? ((socket as unknown as Internals)._socket ?? undefined) : undefined;
}
