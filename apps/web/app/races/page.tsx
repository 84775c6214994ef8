import { RaceList } from '../../components/races/race-list';
import { StartRaceForm } from '../../components/races/start-race-form';

export const metadata = { title: 'Races · racelab' };

export default function RacesPage() {
  return (
    <>
      <h1>Races</h1>
      <p className="lead">
        Each race puts several writer processes on a fresh copy of one table, releases them together, and records who
        committed, what the loser saw, and what the table holds afterwards. Start one of the lesson&apos;s cases or your
        own writers; outcomes appear as each run ends.
      </p>
      <details className="panel" open>
        <summary>
          <strong>Start a race</strong>
        </summary>
        <StartRaceForm />
      </details>
      <div className="panel">
        <RaceList />
      </div>
    </>
  );
}
