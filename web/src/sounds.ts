// The game's sounds, made here with the Web Audio API (no recorded files): a move, a
// capture, a check and the end of a game. Muting is a setting kept in localStorage.
// Each sound asked for is noted on the body (`data-sound="kind:count"`) for the tests.

export type SoundKind = 'move' | 'capture' | 'check' | 'end';

const KEY = 'chimere-sound';
let ctx: AudioContext | null = null;
let count = 0;

export function muted(): boolean {
  return localStorage.getItem(KEY) === 'off';
}

export function setMuted(off: boolean) {
  localStorage.setItem(KEY, off ? 'off' : 'on');
}

/** A tone: frequency (Hz), start (s from now), length (s), loudness, wave. */
type Tone = [number, number, number, number, OscillatorType];

const TONES: Record<SoundKind, Tone[]> = {
  // A short wooden knock.
  move: [[520, 0, 0.06, 0.25, 'triangle']],
  // Two knocks, lower and louder.
  capture: [[300, 0, 0.07, 0.35, 'triangle'], [220, 0.05, 0.09, 0.3, 'triangle']],
  // A bright double beep.
  check: [[880, 0, 0.08, 0.2, 'square'], [1175, 0.1, 0.1, 0.2, 'square']],
  // Three falling notes.
  end: [[784, 0, 0.18, 0.25, 'sine'], [659, 0.18, 0.18, 0.25, 'sine'], [523, 0.36, 0.35, 0.25, 'sine']],
};

export function play(kind: SoundKind) {
  if (muted()) return;
  count++;
  document.body.dataset.sound = `${kind}:${count}`;
  try {
    ctx = ctx || new AudioContext();
    if (ctx.state === 'suspended') ctx.resume().catch(() => {});
    const t0 = ctx.currentTime + 0.01;
    for (const [freq, start, len, gain, type] of TONES[kind]) {
      const osc = ctx.createOscillator();
      const g = ctx.createGain();
      osc.type = type;
      osc.frequency.value = freq;
      g.gain.setValueAtTime(0.0001, t0 + start);
      g.gain.exponentialRampToValueAtTime(gain, t0 + start + 0.005);
      g.gain.exponentialRampToValueAtTime(0.0001, t0 + start + len);
      osc.connect(g).connect(ctx.destination);
      osc.start(t0 + start);
      osc.stop(t0 + start + len + 0.02);
    }
  } catch { /* no audio here */ }
}
