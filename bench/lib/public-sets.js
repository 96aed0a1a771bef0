// Public memory sets turned into bench/memory.js's BENCH_SET shape, read at benchmark time from
// a bare mirror of their repository (nothing of theirs is committed here):
//
//   node bench/lib/public-sets.js memorybank <git dir of zhongwanjun/MemoryBank-SiliconFriend> /tmp/memorybank.json
//   BENCH_SET=/tmp/memorybank.json BENCH_SPLIT=odd node bench/memory.js
//
// MemoryBank (eval_data/en): 15 users' ten days of chat with an AI companion (2023-04-27 to
// 05-06) and 7 probing questions per user, without the turns that answer them. The answering
// turns below were read by hand for this benchmark (2026-12-02), before any retrieval was tuned:
// per user (in the file's order) and question (in its order), the turns as "MM-DD:i" (the day and
// the turn's place in it); null where the set holds no answer (a day with no chat) or where the
// answer is a whole day's talk rather than some turns. Only these indices are committed.
//
// Each turn (the user's words and the companion's answer) is one memory, about its day; the years
// are moved forward by whole years, the same for all, so that the last day is in the past year of
// the run (the questions name days without a year, "On May 2nd", which a reader takes as the
// latest such day). A question is temporal when the project's time words (chrono-node,
// src/modules/intelligence/text/time-words.ts) find a time in it, multi-hop when it has more than
// one answering turn, single-hop otherwise. `conversation` is the user's place in the file: the
// even users are the tuning split, the odd users the reported one.
'use strict';
const { execFileSync } = require('node:child_process');
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');

/* prettier-ignore */
const MEMORYBANK_ANSWERS = [
  [['04-30:3'], ['05-01:0'], ['05-03:2'], ['04-28:1'], ['04-30:1', '04-30:2'], ['05-02:1'], ['05-04:1']],
  [['04-27:2'], ['04-28:8'], ['04-29:1'], ['05-05:1'], ['05-06:1'], ['04-30:1'], ['04-28:2']],
  [['04-27:3'], ['04-29:1', '04-29:2'], ['04-28:1'], ['04-30:1'], ['04-30:2', '05-03:0'], ['05-02:1'], ['04-28:1']],
  [['04-28:1'], ['04-27:4'], ['05-03:1'], ['05-01:1'], ['04-27:2'], ['04-30:1'], ['05-04:0']],
  [['04-28:2'], ['04-29:3'], ['04-28:2'], ['04-27:4'], ['05-01:1'], ['05-02:3'], ['05-04:1']],
  [['05-06:1'], ['05-06:1', '05-06:3'], ['04-27:2', '04-27:3'], ['04-28:2', '04-28:3'], ['05-02:1'], ['05-01:1'], ['05-04:1']],
  [['04-28:1'], ['04-29:0', '04-29:1'], ['04-28:2'], ['04-30:0'], null, ['05-04:0'], ['05-06:0']],
  [null, ['05-06:1', '05-06:2'], ['05-02:0'], ['04-28:2'], ['04-27:3'], ['05-05:0'], ['05-02:0']],
  [['04-27:1'], ['04-30:0'], ['04-30:1'], ['05-04:1'], ['05-06:0', '05-06:1'], ['04-28:2'], ['05-02:0']],
  [['04-28:2'], ['05-04:0'], ['05-05:1'], ['05-04:1'], ['05-02:0', '05-02:1'], ['04-30:0'], ['05-03:0']],
  [['04-27:2'], ['04-27:2'], ['05-05:2'], ['04-30:1'], ['05-03:1'], ['05-02:1'], ['05-04:0']],
  [['04-30:1', '04-30:5'], ['04-30:2', '04-30:6'], ['04-30:1', '04-30:2'], ['05-02:1'], ['04-28:2'], ['04-27:2']],
  [['04-27:2'], ['04-27:2'], ['04-30:1'], ['04-29:1'], ['05-04:1']],
  [['04-28:1', '04-28:2'], ['04-30:1', '04-30:2'], ['05-04:0'], ['05-03:2'], ['04-28:4']],
  [['04-27:2'], ['05-02:1'], ['05-02:2'], ['05-03:1'], ['05-03:1'], ['05-04:1'], ['05-06:0']],
];

/** The whole years to add to a set's dates so that its last day is in the past year of `now`. */
function yearShift(lastDay, now) {
  let shift = 0;
  const at = (s) =>
    Date.UTC(Number(lastDay.slice(0, 4)) + s, Number(lastDay.slice(5, 7)) - 1, Number(lastDay.slice(8, 10)) + 1);
  while (at(shift + 1) <= now.getTime()) shift++;
  return shift;
}

function memoryBank(gitDir, { now = new Date(), namedTimes } = {}) {
  const show = (path) =>
    execFileSync('git', ['--git-dir', gitDir, 'show', `HEAD:${path}`], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const bank = JSON.parse(show('eval_data/en/memory_bank_en.json'));
  const probing = new Map();
  for (const line of show('eval_data/en/probing_questions_en.jsonl').split('\n').filter(Boolean)) {
    for (const [name, questions] of Object.entries(JSON.parse(line))) probing.set(name.trim(), questions);
  }
  const users = Object.entries(bank);
  if (users.length !== MEMORYBANK_ANSWERS.length)
    throw new Error(`MemoryBank: ${users.length} users, the answers are for ${MEMORYBANK_ANSWERS.length}`);
  const days = users.flatMap(([, u]) => Object.keys(u.history)).sort();
  const shift = yearShift(days[days.length - 1], now);
  const memories = [];
  const questions = [];
  users.forEach(([name, user], c) => {
    for (const [day, turns] of Object.entries(user.history)) {
      const time = `${Number(day.slice(0, 4)) + shift}${day.slice(4)}T12:00:00.000Z`;
      turns.forEach((t, i) =>
        memories.push({
          id: `${c}:${day.slice(5)}:${i}`,
          text: `User: ${t.query.trim()}\nAI companion: ${t.response.trim()}`,
          time,
          conversation: c,
        }),
      );
    }
    const asked = probing.get(name.trim()) ?? [];
    const answers = MEMORYBANK_ANSWERS[c];
    if (asked.length !== answers.length)
      throw new Error(`MemoryBank: user ${c} has ${asked.length} questions, the answers are for ${answers.length}`);
    asked.forEach((raw, j) => {
      if (!answers[j]) return;
      const question = raw.trim().replace(/^"+|"+$/g, '');
      const ids = answers[j].map((a) => `${c}:${a}`);
      for (const id of ids) if (!memories.some((m) => m.id === id)) throw new Error(`MemoryBank: no turn ${id}`);
      const temporal = namedTimes ? namedTimes(question, now).length > 0 : false;
      questions.push({
        question,
        answers: ids,
        conversation: c,
        category: temporal ? 'temporal' : ids.length > 1 ? 'multi-hop' : 'single-hop',
      });
    });
  });
  return { memories, questions, source: `MemoryBank-SiliconFriend eval_data/en, years +${shift}` };
}

module.exports = { memoryBank, yearShift, MEMORYBANK_ANSWERS };

if (require.main === module) {
  const [kind, gitDir, out] = process.argv.slice(2);
  if (kind !== 'memorybank' || !gitDir || !out) {
    console.error('usage: node bench/lib/public-sets.js memorybank <git dir> <out.json>');
    process.exit(2);
  }
  const { namedTimes } = require(
    join(__dirname, '..', '..', 'dist', 'src', 'modules', 'intelligence', 'text', 'time-words'),
  );
  const set = memoryBank(gitDir, { namedTimes });
  writeFileSync(out, JSON.stringify(set));
  const count = (c) => set.questions.filter((q) => q.category === c).length;
  console.log(
    `${out}: ${set.memories.length} memories, ${set.questions.length} questions (temporal ${count('temporal')}, multi-hop ${count('multi-hop')}, single-hop ${count('single-hop')}); ${set.source}`,
  );
}
