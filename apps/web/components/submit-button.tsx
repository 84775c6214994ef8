/**
 * A form's submit button that says why it cannot be pressed: a greyed-out button alone tells a person nothing,
 * so the reason is shown beside it and is the button's description for a screen reader. While the form's own
 * request runs the button is disabled too (`busy`); the form's status line says what it is doing.
 */
import { type ReactNode, useId } from 'react';

export function SubmitButton({
  why,
  busy = false,
  children,
}: {
  why: string | null;
  busy?: boolean;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <>
      <button type="submit" disabled={why !== null || busy} aria-describedby={why === null ? undefined : id}>
        {children}
      </button>
      {why !== null && (
        <span id={id} className="muted" data-testid="disabled-why">
          {why}
        </span>
      )}
    </>
  );
}
