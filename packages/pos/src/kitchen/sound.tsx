import { signal, useSignal } from '../api.js';

// A short two-tone chime for a new ticket, from WebAudio (no file to fetch); off until the cook turns
// it on, remembered on the tablet. Fails quietly where a browser lacks it.
const STORED = 'comanda.sound';
const on = signal(localStorage.getItem(STORED) === 'on');
/** Chimes played, shown on the button (`data-played`) so a test, or a curious cook's inspector, can tell. */
const played = signal(0);
let context: AudioContext | null = null;

export function chime(): void {
  if (!on.get() || !context) return;
  played.set(played.get() + 1);
  const now = context.currentTime;
  for (const [i, frequency] of [880, 1320].entries()) {
    const osc = context.createOscillator();
    const gain = context.createGain();
    osc.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, now + i * 0.18);
    gain.gain.exponentialRampToValueAtTime(0.4, now + i * 0.18 + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.18 + 0.16);
    osc.connect(gain).connect(context.destination);
    osc.start(now + i * 0.18);
    osc.stop(now + i * 0.18 + 0.17);
  }
}

export function SoundButton() {
  const isOn = useSignal(on);
  const count = useSignal(played);
  const toggle = () => {
    on.set(!isOn);
    localStorage.setItem(STORED, on.get() ? 'on' : 'off');
    // Created on the tap: browsers only let a page make sound after a gesture.
    if (on.get()) context ??= new AudioContext();
    void context?.resume();
  };
  // Text, not an emoji: a kitchen tablet's browser may lack an emoji font.
  return (
    <button type="button" id="sound" aria-pressed={isOn} data-played={count > 0 ? String(count) : undefined}
      title={isOn ? 'Sound for new tickets: on' : 'Sound for new tickets: off'} onClick={toggle}>
      {isOn ? '♪ On' : '♪ Off'}
    </button>
  );
}

/** Keeps a wall tablet's screen on (Screen Wake Lock API where the browser has it), again after the tab comes back. */
let awake = false;
export function keepAwake(): void {
  if (awake || !('wakeLock' in navigator)) return;
  awake = true;
  let lock: WakeLockSentinel | null = null;
  const acquire = async () => {
    if (document.visibilityState !== 'visible' || (lock && !lock.released)) return;
    lock = await navigator.wakeLock.request('screen').catch(() => null);
    document.body.dataset.awake = String(lock !== null);
  };
  document.addEventListener('visibilitychange', () => void acquire());
  void acquire();
}
