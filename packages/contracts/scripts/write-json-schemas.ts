/**
 * `npm run contracts -w @racelab/contracts`: writes the contracts' JSON Schemas into the repository's contracts/
 * folder, where they are committed; a test fails while they differ from the schemas in src/.
 */
import { writeFileSync } from 'node:fs';
import { CONTRACTS, CONTRACTS_FOLDER, type ContractFile, contractText } from '../src/json-schemas';

for (const file of Object.keys(CONTRACTS) as ContractFile[]) {
  writeFileSync(new URL(file, CONTRACTS_FOLDER), contractText(file));
  console.log(`wrote contracts/${file}`);
}
