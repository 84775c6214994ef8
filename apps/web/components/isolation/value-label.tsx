/**
 * A `delta.isolationLevel` value as written. The spelling is the whole point, so it is shown in
 * code type, and spaces at either end (invisible otherwise) are called out.
 */
export function ValueLabel({ value }: { value: string | null }) {
  if (value === null) return <span className="muted">unset</span>;
  if (value === '') return <span className="muted">empty string</span>;
  const padded = value !== value.trim();
  return (
    <>
      <code>{value}</code>
      {padded && <span className="muted"> (with spaces at the ends)</span>}
    </>
  );
}
