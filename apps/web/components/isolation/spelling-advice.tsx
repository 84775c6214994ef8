'use client';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { gql } from '../../lib/gql';
import { ADVICE_QUERY, asSentence, type IsolationAdvice } from '../../lib/isolation';
import { Failed, Loading } from '../states';
import { EngineReadings } from './engine-readings';

/** The level most people mean to set, and most often misspell. */
const FIRST_SHOWN = 'WriteSerializable';

/**
 * The one answer on spelling: for the level the user means, the spelling every engine reads as that
 * level at commit (notes, such as Delta Spark's DDL not setting it, beside it), or, when there is
 * none, which engines read it differently; then what each engine does when the property is unset.
 * All from the API's isolationAdvice, which the engine's recommendSpelling decides.
 */
export function SpellingAdvice() {
  const advice = useQuery({
    queryKey: ['isolationAdvice'],
    queryFn: async () => (await gql(ADVICE_QUERY)).isolationAdvice,
  });
  if (advice.isError) return <Failed error={advice.error} />;
  if (!advice.data) return <Loading what="the recommended spelling" />;
  return <Advice advice={advice.data} />;
}

function Advice({ advice }: { advice: IsolationAdvice }) {
  const selectId = useId();
  const [level, setLevel] = useState(FIRST_SHOWN);
  const spelling = advice.spellings.find((s) => s.level === level) ?? advice.spellings[0];
  const { unset } = advice;
  return (
    <>
      <label htmlFor={selectId}>The level you mean</label>{' '}
      <select id={selectId} value={spelling?.level} onChange={(e) => setLevel(e.target.value)}>
        {advice.spellings.map((s) => (
          <option key={s.level} value={s.level}>
            {s.level}
          </option>
        ))}
      </select>
      {spelling && (
        <div data-testid="spelling-advice" data-level={spelling.level} data-recommended={spelling.value ?? ''}>
          {spelling.value ? (
            <p>
              <span className="badge ok">write</span> <code>{spelling.value}</code>{' '}
              <span className="muted">{asSentence(spelling.advice)}</span>
            </p>
          ) : (
            <p className="flag" role="note">
              <strong>No one spelling of {spelling.level} works on every engine.</strong> {asSentence(spelling.advice)}
            </p>
          )}
          <EngineReadings
            interpretations={spelling.readings}
            caption={`How each engine reads '${spelling.candidate}' when it commits`}
          />
        </div>
      )}
      <h3>Unset</h3>
      <div data-testid="unset-advice" data-flagged={String(unset.flagged)}>
        <p>
          {unset.flagged ? (
            <span className="badge bad" title="the engines' defaults differ">
              ⚑ flagged
            </span>
          ) : (
            <span className="badge ok">one level everywhere</span>
          )}{' '}
          {asSentence(unset.summary)} {unset.fix && <strong>{asSentence(unset.fix)}</strong>}
        </p>
        <EngineReadings interpretations={unset.defaults} caption="Each engine's default" />
      </div>
    </>
  );
}
