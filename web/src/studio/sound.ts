/**
 * Tiny WebAudio cues. Off by default: no AudioContext exists until the player turns sound on
 * (browsers also require a user gesture for audio).
 */
type Cue = 'click' | 'tick' | 'spin' | 'stop' | 'win' | 'bigWin' | 'lose' | 'bet' | 'cashout' | 'crash';

const NOTES: Record<Cue, [number, number, OscillatorType, number][]> = {
  // [frequency Hz, start s, wave, duration s]
  click: [[880, 0, 'triangle', 0.05]],
  tick: [[1400, 0, 'square', 0.02]],
  spin: [[220, 0, 'sawtooth', 0.08], [330, 0.06, 'sawtooth', 0.08]],
  stop: [[180, 0, 'triangle', 0.09]],
  bet: [[660, 0, 'triangle', 0.06], [990, 0.05, 'triangle', 0.06]],
  win: [[523, 0, 'triangle', 0.12], [659, 0.1, 'triangle', 0.12], [784, 0.2, 'triangle', 0.2]],
  bigWin: [[523, 0, 'square', 0.1], [659, 0.1, 'square', 0.1], [784, 0.2, 'square', 0.1], [1046, 0.3, 'triangle', 0.4]],
  lose: [[300, 0, 'sine', 0.15], [220, 0.12, 'sine', 0.22]],
  cashout: [[784, 0, 'triangle', 0.08], [1175, 0.08, 'triangle', 0.18]],
  crash: [[140, 0, 'sawtooth', 0.3], [90, 0.1, 'sawtooth', 0.35]],
};

let ctx: AudioContext | null = null;
let enabled = false;

export function setSoundEnabled(on: boolean) {
  enabled = on;
  if (on && !ctx) {
    const AC = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (AC) ctx = new AC();
  }
  if (on) void ctx?.resume();
}

export function soundEnabled() {
  return enabled;
}

export function play(cue: Cue) {
  if (!enabled || !ctx) return;
  const now = ctx.currentTime;
  for (const [freq, start, type, dur] of NOTES[cue]) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = type;
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, now + start);
    gain.gain.exponentialRampToValueAtTime(0.12, now + start + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + start + dur);
    osc.connect(gain).connect(ctx.destination);
    osc.start(now + start);
    osc.stop(now + start + dur + 0.02);
  }
}
