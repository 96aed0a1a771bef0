// A synthetic set of long conversations for bench/memory.js, made deterministically from a seed:
// pairs of people talking over dated sessions, one memory per turn, and questions with the turns
// that answer them, of three kinds: single-hop (one turn), multi-hop (two turns, in different
// sessions) and temporal (the question names the month; the same person says something alike in
// other months, so only the time tells the turns apart). Questions word things differently from
// the turns (inflections, other words), as people do; filler turns share their vocabulary.
'use strict';

function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PEOPLE = [
  'Caroline',
  'Melanie',
  'Jon',
  'Gina',
  'Tim',
  'John',
  'Maria',
  'Joanna',
  'Nate',
  'Audrey',
  'Andrew',
  'Deborah',
  'Evan',
  'Sam',
  'Calvin',
  'Dave',
  'Priya',
  'Omar',
  'Lena',
  'Hugo',
];
const ANIMALS = ['beagle puppy', 'tabby kitten', 'parrot', 'rabbit', 'corgi', 'hamster', 'tortoise', 'husky'];
const PETS = ['Max', 'Luna', 'Biscuit', 'Pepper', 'Oscar', 'Mochi', 'Ziggy', 'Nala', 'Bruno', 'Coco'];
const HOBBIES = [
  'pottery',
  'salsa dancing',
  'violin',
  'watercolor painting',
  'rock climbing',
  'swimming',
  'photography',
  'Spanish',
  'guitar',
  'yoga',
];
const CITIES = [
  'Lisbon',
  'Kyoto',
  'Vancouver',
  'Marrakesh',
  'Reykjavik',
  'Prague',
  'Buenos Aires',
  'Seoul',
  'Edinburgh',
  'Cape Town',
];
const SIGHTS = [
  'cathedral',
  'night market',
  'waterfall',
  'old castle',
  'botanical garden',
  'harbor',
  'street art',
  'hot springs',
];
const JOBS = [
  'nurse',
  'data analyst',
  'barista',
  'graphic designer',
  'teacher',
  'software engineer',
  'chef',
  'accountant',
];
const COMPANIES = [
  'Northwind',
  'Globex',
  'Initech',
  'Umbrella Health',
  'Stark Labs',
  'Acme Foods',
  'Hooli',
  'Vandelay',
];
const TOPICS = [
  'climate change',
  'ancient Rome',
  'friendship',
  'the ocean',
  'artificial intelligence',
  'grief',
  'space travel',
  'gardening',
];
const BOOKS = [
  'The Quiet Tide',
  'Paper Lanterns',
  'North of Nowhere',
  'The Last Orchard',
  'Glass Cities',
  'Salt and Stars',
  'Winter Letters',
  'The Long Road',
];
const FOODS = [
  'a lemon cake',
  'chocolate cookies',
  'banana bread',
  'an apple pie',
  'cinnamon rolls',
  'a carrot cake',
  'blueberry muffins',
  'a cheesecake',
];
const RELATIONS = ['sister', 'brother', 'mother', 'father', 'cousin', 'grandmother', 'aunt', 'uncle'];
const RELATIVE_NAMES = ['Rosa', 'Ben', 'Elena', 'Marcus', 'Ivy', 'Theo', 'Nora', 'Felix'];
const INSTRUMENTS = ['ukulele', 'cello', 'drum kit', 'keyboard', 'saxophone', 'harmonica'];
const EVENTS = [
  'school fundraiser',
  'street festival',
  'wedding reception',
  'open mic night',
  'charity gala',
  'neighborhood party',
];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const FILLER = [
  '{B}: That sounds wonderful, I am so happy for you!',
  '{B}: How have you been lately? Work has been really busy for me.',
  '{A}: Honestly I have been tired, but the weekend helped.',
  '{B}: I keep meaning to read more books, I never find the time.',
  '{B}: We should plan a trip together sometime, maybe next year.',
  '{A}: My family says hi, by the way.',
  '{B}: I tried some lessons once but gave up after a month.',
  '{A}: The weather has been strange, it rained every day this week.',
  '{B}: Did you see the new cafe downtown? Their cake is great.',
  '{A}: I started a new routine, walking every morning before work.',
  '{B}: Pets are so much work, but they are worth it.',
  '{A}: I have been thinking about changing jobs, but it is scary.',
  '{B}: Music always cheers me up when I feel down.',
  '{A}: Thanks for listening, it means a lot to me.',
  '{B}: Let me know how it goes next time we talk!',
  '{A}: I visited a museum last month, it was fun.',
];

const pick = (r, list) => list[Math.floor(r() * list.length)];
const fill = (s, v) => s.replace(/\{(\w+)\}/g, (_, k) => v[k] ?? `{${k}}`);

/**
 * { memories: [{ id, text, time, conversation }], questions: [{ id, question, answers: [memory ids], category, conversation }] }
 * for `conversations` conversations of `sessions` sessions of about `turns` turns each.
 */
function makeConversations({ seed = 7, conversations = 10, sessions = 10, turns = 24 } = {}) {
  const r = rng(seed);
  const memories = [];
  const questions = [];
  for (let c = 0; c < conversations; c++) {
    const A = PEOPLE[(2 * c) % PEOPLE.length];
    const B = PEOPLE[(2 * c + 1) % PEOPLE.length];
    let day = Date.UTC(2023, 0, 5 + Math.floor(r() * 20));
    const hobbyBySession = [];
    let relative = null;
    let instrument = null;
    for (let s = 0; s < sessions; s++) {
      day += (18 + Math.floor(r() * 30)) * 86_400_000;
      const time = new Date(day + (9 + Math.floor(r() * 10)) * 3_600_000);
      const month = `${MONTHS[time.getUTCMonth()]} ${time.getUTCFullYear()}`;
      const said = [];
      const who = () => (r() < 0.5 ? { A, B } : { A: B, B: A });
      const fact = (text, q, category = 'single-hop') => said.push({ text, q, category });
      // Facts of this session: a few kinds, each with its question.
      const p1 = who();
      const hobby = pick(r, HOBBIES);
      hobbyBySession.push({ person: p1.A, hobby });
      fact(
        `${p1.A}: I've been taking ${hobby} lessons at the community center every Tuesday evening.`,
        {
          temporal: `Which lessons was ${p1.A} taking in ${month}?`,
        },
        'temporal',
      );
      const p2 = who();
      const kind = Math.floor(r() * 5);
      if (kind === 0) {
        const animal = pick(r, ANIMALS);
        const pet = pick(r, PETS);
        fact(`${p2.A}: I finally adopted a ${animal}, we named it ${pet}! It is so playful.`, {
          single: `What is the name of the ${animal.split(' ').pop()} ${p2.A} adopts?`,
        });
      } else if (kind === 1) {
        const city = pick(r, CITIES);
        const sight = pick(r, SIGHTS);
        fact(`${p2.A}: We just got back from ${city}, the ${sight} there was amazing.`, {
          single: `Which city did ${p2.A} travel to where the ${sight} impressed them?`,
        });
      } else if (kind === 2) {
        const job = pick(r, JOBS);
        const company = pick(r, COMPANIES);
        fact(`${p2.A}: Big news, I started working as a ${job} at ${company}.`, {
          single: `What position does ${p2.A} hold at ${company}?`,
        });
      } else if (kind === 3) {
        const book = pick(r, BOOKS);
        const topic = pick(r, TOPICS);
        fact(`${p2.A}: I'm reading "${book}", a novel about ${topic}.`, {
          single: `Which novel about ${topic} is ${p2.A} reading?`,
        });
      } else {
        const food = pick(r, FOODS);
        const rel = pick(r, RELATIONS);
        fact(`${p2.A}: I baked ${food} for my ${rel}'s birthday party.`, {
          single: `What did ${p2.A} bake for the ${rel}'s birthday?`,
        });
      }
      // Multi-hop: a relative named in one session, visited in a later one; an instrument bought, then played.
      if (!relative && r() < 0.5) {
        relative = {
          person: A,
          rel: pick(r, RELATIONS),
          name: pick(r, RELATIVE_NAMES),
          city: pick(r, CITIES),
          at: null,
        };
        fact(`${A}: My ${relative.rel} ${relative.name} moved to ${relative.city} last year.`, {});
        relative.at = said.length - 1;
        relative.session = s;
      } else if (relative && relative.visit === undefined && s > relative.session) {
        fact(`${A}: I spent the weekend with ${relative.name}, we went hiking in the hills near her new place.`, {});
        relative.visit = { session: s, at: said.length - 1 };
      }
      if (!instrument && r() < 0.4) {
        instrument = { person: B, name: pick(r, INSTRUMENTS), event: pick(r, EVENTS) };
        fact(`${B}: I bought a second-hand ${instrument.name} and I practice every night.`, {});
        instrument.session = s;
        instrument.at = said.length - 1;
      } else if (instrument && instrument.played === undefined && s > instrument.session) {
        fact(`${B}: I played it in front of everyone at the ${instrument.event}, so nervous!`, {});
        instrument.played = { session: s, at: said.length - 1 };
      }
      // Filler around the facts.
      const n = turns - said.length;
      for (let i = 0; i < n; i++)
        said.splice(Math.floor(r() * (said.length + 1)), 0, { text: fill(pick(r, FILLER), who()), q: null });
      said.forEach((turn, t) => {
        const id = `c${c}s${s}t${t}`;
        turn.id = id;
        memories.push({
          id,
          text: turn.text,
          time: new Date(time.getTime() + t * 60_000).toISOString(),
          conversation: c,
        });
        if (turn.q?.single)
          questions.push({
            id: `q${questions.length}`,
            question: turn.q.single,
            answers: [id],
            category: 'single-hop',
            conversation: c,
          });
        if (turn.q?.temporal)
          questions.push({
            id: `q${questions.length}`,
            question: turn.q.temporal,
            answers: [id],
            category: 'temporal',
            conversation: c,
          });
      });
      if (relative?.visit?.session === s && !relative.asked) {
        relative.asked = true;
        const first = memories.find(
          (m) => m.conversation === c && m.text.startsWith(`${A}: My ${relative.rel} ${relative.name} moved`),
        );
        const second = memories.find((m) => m.conversation === c && m.text.includes(`weekend with ${relative.name},`));
        questions.push({
          id: `q${questions.length}`,
          question: `In which city did ${A} go hiking with the ${relative.rel}?`,
          answers: [first.id, second.id],
          category: 'multi-hop',
          conversation: c,
        });
      }
      if (instrument?.played?.session === s && !instrument.asked) {
        instrument.asked = true;
        const first = memories.find(
          (m) => m.conversation === c && m.text.includes(`bought a second-hand ${instrument.name}`),
        );
        const second = memories.find(
          (m) => m.conversation === c && m.text.includes(`at the ${instrument.event}, so nervous`),
        );
        questions.push({
          id: `q${questions.length}`,
          question: `What instrument did ${B} play at the ${instrument.event}?`,
          answers: [first.id, second.id],
          category: 'multi-hop',
          conversation: c,
        });
      }
    }
  }
  return { memories, questions };
}

module.exports = { makeConversations };
