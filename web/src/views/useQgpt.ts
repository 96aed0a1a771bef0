import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { openSocket } from '../lib/api';

/** A question being answered over `/qgpt/stream`, as the clients use it (chunks, then COMPLETED / FAILED / STOPPED). */
export interface LiveAnswer {
  request: string;
  question: string;
  conversation: string | null;
  text: string;
  status: 'WAITING' | 'IN-PROGRESS' | 'COMPLETED' | 'FAILED' | 'STOPPED';
  error?: string;
  sources: string[];
}

export interface Ask {
  query: string;
  conversation?: string;
  model?: string;
  relevant: Array<{ id: string } | { seed: unknown }>;
  sources: string[];
}

interface Frame {
  request?: string;
  conversation?: string;
  status?: LiveAnswer['status'] | 'RESET';
  statusCode?: number;
  message?: string;
  error?: string;
  question?: { answers?: { iterable?: Array<{ text?: string }> } };
}

/** One socket to `/qgpt/stream` for the Copilot view; `ask` sends a question, `stop` stops the answer under way. */
export function useQgpt(onDone: (answer: LiveAnswer) => void) {
  const client = useQueryClient();
  const socket = useRef<WebSocket | null>(null);
  const ready = useRef<Promise<WebSocket> | null>(null);
  const [live, setLive] = useState<LiveAnswer | null>(null);
  const current = useRef<LiveAnswer | null>(null);
  const done = useRef(onDone);
  useEffect(() => {
    done.current = onDone;
  });

  const connect = useCallback((): Promise<WebSocket> => {
    if (ready.current && socket.current?.readyState === WebSocket.OPEN) return ready.current;
    ready.current = new Promise((resolve, reject) => {
      const ws = openSocket('/qgpt/stream');
      socket.current = ws;
      ws.onopen = () => resolve(ws);
      ws.onerror = () => reject(new Error('Copilot could not reach Trove'));
      ws.onclose = () => {
        if (current.current && ['WAITING', 'IN-PROGRESS'].includes(current.current.status)) {
          current.current = { ...current.current, status: 'FAILED', error: 'the connection to Trove was lost' };
          setLive(current.current);
        }
      };
      ws.onmessage = (event) => {
        let frame: Frame;
        try {
          frame = JSON.parse(String(event.data)) as Frame;
        } catch {
          return;
        }
        const answer = current.current;
        if (!answer || (frame.request && frame.request !== answer.request)) return;
        const chunk = frame.question?.answers?.iterable?.map((a) => a.text ?? '').join('') ?? '';
        const next: LiveAnswer = {
          ...answer,
          conversation: frame.conversation || answer.conversation,
          text: answer.text + chunk,
          status: frame.status === 'RESET' ? 'STOPPED' : (frame.status ?? answer.status),
          ...(frame.status === 'FAILED'
            ? { error: frame.message || frame.error || `the answer failed (${frame.statusCode ?? 'error'})` }
            : {}),
        };
        current.current = next;
        setLive(next);
        if (['COMPLETED', 'FAILED', 'STOPPED'].includes(next.status)) {
          void client.invalidateQueries({ queryKey: ['conversations'] });
          if (next.conversation) void client.invalidateQueries({ queryKey: ['messages', next.conversation] });
          done.current(next);
        }
      };
    });
    return ready.current;
  }, [client]);

  useEffect(() => () => socket.current?.close(), []);

  const ask = useCallback(
    async ({ query, conversation, model, relevant, sources }: Ask) => {
      const request = `web-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}`;
      current.current = {
        request,
        question: query,
        conversation: conversation ?? null,
        text: '',
        status: 'WAITING',
        sources,
      };
      setLive(current.current);
      try {
        const ws = await connect();
        ws.send(
          JSON.stringify({
            question: { query, relevant: { iterable: relevant }, ...(model ? { model } : {}) },
            request,
            ...(conversation ? { conversation } : {}),
          }),
        );
      } catch (error) {
        current.current = { ...current.current, status: 'FAILED', error: (error as Error).message };
        setLive(current.current);
      }
    },
    [connect],
  );

  const stop = useCallback(() => {
    const answer = current.current;
    if (answer?.conversation && socket.current?.readyState === WebSocket.OPEN)
      socket.current.send(JSON.stringify({ stop: true, conversation: answer.conversation }));
  }, []);

  const clear = useCallback(() => {
    current.current = null;
    setLive(null);
  }, []);

  return { live, ask, stop, clear };
}
