export default function Home() {
  return (
    <main>
      <h1>racelab</h1>
      <p>
        The team dashboard for concurrent writes to lakehouse tables. Races, isolation settings and the conflict
        playground arrive with the dashboard issue.
      </p>
    </main>
  );
}
