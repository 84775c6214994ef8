import { RaceDetail } from '../../../components/races/race-detail';

export const metadata = { title: 'Race · racelab' };

export default async function RacePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <RaceDetail id={id} />;
}
