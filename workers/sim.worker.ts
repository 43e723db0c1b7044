/** The simulation worker's entry: expose one SimService (workers/sim-service.ts) over comlink. Nothing else. */
import * as Comlink from 'comlink';
import { createSimService } from './sim-service';

Comlink.expose(createSimService());
