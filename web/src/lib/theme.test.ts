import { describe, expect, it } from 'vitest';
import { argbToCss, isDark, parseTheme, themeVariables } from './theme';

describe('ARGB colours', () => {
  it('converts the signed 32-bit values the plugins compute (a << 24 | r << 16 | g << 8 | b)', () => {
    const argb = (a: number, r: number, g: number, b: number) => (a << 24) | (r << 16) | (g << 8) | b;
    expect(argb(255, 30, 30, 30)).toBeLessThan(0);
    expect(argbToCss(argb(255, 30, 30, 30))).toBe('#1e1e1e');
    expect(argbToCss(argb(255, 255, 255, 255))).toBe('#ffffff');
    expect(argbToCss(0xff336699)).toBe('#336699');
    expect(argbToCss(argb(128, 0, 0, 255))).toBe('#0000ff80');
  });
  it('refuses what is not a 32-bit integer', () => {
    for (const bad of [1.5, NaN, 2 ** 33, -(2 ** 33), '#fff', 'red;background:url(x)', null, undefined, {}])
      expect(argbToCss(bad)).toBeNull();
  });
});

describe('host themes', () => {
  it('maps the Obsidian theme fields to the app variables and drops bad ones', () => {
    const vars = themeVariables({
      darkMode: true,
      scaffoldBackgroundColor: -14803426,
      onSurface: -2236963,
      secondary: 'x' as unknown as number,
    });
    expect(vars).toEqual({ '--bg': '#1e1e1e', '--fg': '#dddddd' });
  });
  it('parses the theme parameter as a JSON object only', () => {
    expect(parseTheme('{"darkMode":false}')).toEqual({ darkMode: false });
    for (const bad of [null, '', 'nope', '[1]', '3']) expect(parseTheme(bad)).toBeNull();
  });
  it('follows darkMode, else the browser', () => {
    expect(isDark({ darkMode: true }, false)).toBe(true);
    expect(isDark({ darkMode: false }, true)).toBe(false);
    expect(isDark(null, true)).toBe(true);
    expect(isDark({}, false)).toBe(false);
  });
});
