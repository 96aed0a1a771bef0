import { Injectable } from '@nestjs/common';
import { ChatMessage, collect } from '../intelligence/providers/model-provider';
import { standaloneQuery } from '../intelligence/text/extractive-answerer';
import { ResolvedModel } from '../models/model-registry';
import { OfflineAnswers } from './offline-answers';
import { Snippet } from './snippet-cache';
import { QGPTQuestionAnswerWire } from './wire/qgpt.wire';

/** Context sent to a language model. */
const CONTEXT_CHARS = 12_000;

const SYSTEM_PROMPT =
  "You are Trove's assistant for a developer's saved snippets. Answer the question using the context snippets when " +
  'they are relevant, say so when they do not contain the answer, and put code in fenced blocks. Be concise.';

/**
 * The answers of the model a request resolved to: a language model's from a prompt of the
 * snippets, or the offline engine's (OfflineAnswers) when the model is the offline one; follow-ups
 * made standalone and follow-up questions suggested the same way.
 */
@Injectable()
export class ModelAnswers {
  constructor(private readonly offline: OfflineAnswers) {}

  /** The answers of /qgpt/question and relevance's `answer`; a stand-in's note comes last, with score 0. */
  async answers(model: ResolvedModel, query: string, snippets: Snippet[]): Promise<QGPTQuestionAnswerWire[]> {
    const answers = model.offline
      ? this.offline.answers(query, snippets)
      : [
          {
            score: 1,
            text: (await collect(this.stream({ ...model, standsInFor: undefined }, query, snippets, []))).trim(),
          },
        ];
    const note = standInNote(model);
    return note ? [...answers, { score: 0, text: note }] : answers;
  }

  /** The answer as a stream of text chunks: the model's, or the offline passages. */
  async *stream(
    model: ResolvedModel,
    query: string,
    snippets: Snippet[],
    history: ChatMessage[],
    signal?: AbortSignal,
  ): AsyncIterable<string> {
    if (model.offline) {
      const answers = this.offline.answers(query, snippets);
      const text = answers.map((a) => a.text).join('\n\n');
      for (const piece of text.split(/(?<=\n)/)) {
        if (signal?.aborted) return;
        yield piece;
      }
    } else {
      yield* model.provider.chat(model.unique, prompt(model, query, snippets, history), {
        signal,
        temperature: model.generation.temperature,
        maxTokens: model.generation.maxTokens,
      });
    }
    const note = standInNote(model);
    if (note && !signal?.aborted) yield `\n\n*${note}*`;
  }

  /** A follow-up plus history as a standalone query. */
  async reprompt(model: ResolvedModel, query: string, history: Array<{ role: string; text: string }>): Promise<string> {
    if (model.offline || history.length === 0) return standaloneQuery(query, history);
    const transcript = history
      .slice(-12)
      .map((m) => `${m.role}: ${m.text.slice(0, 2000)}`)
      .join('\n');
    const out = await collect(
      model.provider.chat(
        model.unique,
        [
          {
            role: 'system',
            content:
              'Rewrite the follow-up question so it can be understood without the conversation. Answer with the rewritten question only.',
          },
          { role: 'user', content: `Conversation:\n${transcript}\n\nFollow-up: ${query}` },
        ],
        { maxTokens: 200, temperature: 0 },
      ),
    );
    return out.trim().split('\n')[0].trim() || query;
  }

  /** Follow-up questions suggested from the snippets and the answer. */
  async hints(
    model: ResolvedModel,
    query: string,
    answer: string,
    snippets: Snippet[],
  ): Promise<QGPTQuestionAnswerWire[]> {
    if (model.offline) return this.offline.hints(query, answer, snippets);
    const context = snippets
      .map((s) => s.text)
      .join('\n\n')
      .slice(0, CONTEXT_CHARS);
    const out = await collect(
      model.provider.chat(
        model.unique,
        [
          {
            role: 'system',
            content:
              'Suggest three short follow-up questions a developer could ask next. One per line, no numbering, nothing else.',
          },
          { role: 'user', content: `Question: ${query}\n\nAnswer: ${answer}\n\nContext:\n${context}` },
        ],
        { maxTokens: 200, temperature: 0.3 },
      ),
    );
    return out
      .split('\n')
      .map((l) => l.replace(/^[\s\-*\d.)]+/, '').trim())
      .filter((l) => l.length > 3)
      .slice(0, 3)
      .map((text, i) => ({ score: Math.round((1 - i * 0.1) * 100) / 100, text }));
  }
}

/** Says which model answered when it is not the one the request named (a client model standing in). */
function standInNote(model: ResolvedModel): string | null {
  return model.standsInFor
    ? `Answered by ${model.name}: ${model.standsInFor} is not served by this Trove server (GET /models says what runs each model).`
    : null;
}

/** The messages a language model gets: system prompt, context snippets, history, the question. */
function prompt(model: ResolvedModel, query: string, snippets: Snippet[], history: ChatMessage[]): ChatMessage[] {
  let context = '';
  snippets.forEach((s, i) => {
    if (context.length >= CONTEXT_CHARS) return;
    const origin = s.path ? ` (${s.path})` : '';
    context += `\n\n[${i + 1}]${origin}\n${s.text.slice(0, CONTEXT_CHARS - context.length)}`;
  });
  return [
    { role: 'system', content: model.systemPrompt ?? SYSTEM_PROMPT },
    ...(context ? [{ role: 'system' as const, content: `Context snippets:${context}` }] : []),
    ...history,
    { role: 'user', content: query },
  ];
}
