import type { ReactNode } from 'react';
import { Nav } from '../components/nav';
import './globals.css';
import { Providers } from './providers';

export const metadata = { title: 'racelab', description: 'Two writers, one table: who wins?' };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <Providers>
          <div className="shell">
            <Nav />
            <main className="content">{children}</main>
          </div>
        </Providers>
      </body>
    </html>
  );
}
