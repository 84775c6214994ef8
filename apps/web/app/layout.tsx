import type { ReactNode } from 'react';

export const metadata = { title: 'racelab', description: 'Two writers, one table: who wins?' };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body style={{ fontFamily: 'system-ui, sans-serif', margin: '2rem' }}>{children}</body>
    </html>
  );
}
