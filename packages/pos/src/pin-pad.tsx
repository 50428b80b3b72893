/** Digits, back and a confirm key: a PIN or an amount typed without a keyboard. */
export function Keypad(props: { value: string; onChange: (value: string) => void; onEnter?: () => void; decimal?: boolean; enterLabel?: string; disabled?: boolean }) {
  const press = (key: string) => {
    if (props.disabled) return;
    if (key === '⌫') return props.onChange(props.value.slice(0, -1));
    if (key === '.' && props.value.includes('.')) return;
    if (props.value.length >= 12) return;
    props.onChange(props.value + key);
  };
  const keys = ['1', '2', '3', '4', '5', '6', '7', '8', '9', props.decimal ? '.' : 'C', '0', '⌫'];
  return (
    <div class="keypad">
      {keys.map((k) => (
        <button type="button" key={k} class="key" data-key={k} disabled={props.disabled} onClick={() => (k === 'C' ? props.onChange('') : press(k))}>{k}</button>
      ))}
      {props.onEnter && <button type="button" class="key enter" disabled={props.disabled} onClick={props.onEnter}>{props.enterLabel ?? 'OK'}</button>}
    </div>
  );
}
