import type { QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { markDeleted, onKeyChange, openSocket } from '../lib/api';

/**
 * Live updates from Trove's change streams: a stream's first frame (the current identifiers)
 * refetches the lists once, and every later frame names records that changed, whose queries
 * are refetched (a burst of frames, one refetch). Reconnects with a growing delay.
 */
export function useLiveUpdates(client: QueryClient): void {
  useEffect(() => {
    let closers: Array<() => void> = [];
    // The streams' first frames (every identifier in the store) wait until the first snippets are
    // on screen: they must not compete with the page's first requests.
    const start = setTimeout(() => {
      closers = [
        follow('/assets/stream/identifiers', (ids) => {
          void client.invalidateQueries({ queryKey: ['assets'] });
          void client.invalidateQueries({ queryKey: ['search'] });
          for (const id of ids) void client.invalidateQueries({ queryKey: ['asset', id] });
        }),
        follow('/conversations/stream/identifiers', (ids) => {
          void client.invalidateQueries({ queryKey: ['conversations'] });
          for (const id of ids) void client.invalidateQueries({ queryKey: ['messages', id] });
        }),
      ];
    }, STREAM_DELAY_MS);
    return () => {
      clearTimeout(start);
      closers.forEach((close) => close());
    };
  }, [client]);
}

/** How long after the page starts the change streams open. */
const STREAM_DELAY_MS = 1500;

function follow(path: string, changed: (ids: string[]) => void): () => void {
  let socket: WebSocket | null = null;
  let stopped = false;
  let delay = 1000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let batch = new Set<string>();
  const flush = () => {
    const ids = [...batch];
    batch = new Set();
    timer = undefined;
    changed(ids);
  };
  const open = () => {
    if (stopped) return;
    let first = true;
    socket = openSocket(path);
    socket.onmessage = (event) => {
      delay = 1000;
      if (first) {
        // The current identifiers: what changed before this socket opened (or while it was
        // closed) is refetched once; the frame itself is not read.
        first = false;
        changed([]);
        return;
      }
      try {
        const frame = JSON.parse(String(event.data)) as { iterable?: Array<Record<string, { id?: string } | boolean>> };
        for (const item of frame.iterable ?? [])
          for (const value of Object.values(item))
            if (typeof value === 'object' && value?.id) {
              // A deleted record is not read again (its refetch would only answer 410).
              if (item.deleted === true) markDeleted(value.id);
              batch.add(value.id);
            }
      } catch {
        /* not JSON: ignore */
      }
      timer ??= setTimeout(flush, 150);
    };
    socket.onclose = () => {
      if (stopped) return;
      retry = setTimeout(open, delay);
      delay = Math.min(Math.max(delay * 2, 1000), 30_000);
    };
  };
  open();
  // A key entered after a refusal: reconnect now rather than after the back-off.
  const offKey = onKeyChange(() => {
    delay = 1000;
    clearTimeout(retry);
    if (socket && socket.readyState !== WebSocket.CLOSED) {
      socket.onclose = null;
      socket.close();
    }
    open();
  });
  return () => {
    offKey();
    stopped = true;
    clearTimeout(timer);
    clearTimeout(retry);
    socket?.close();
  };
}
