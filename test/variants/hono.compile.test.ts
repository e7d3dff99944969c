// Hono's app in every shape of test/variants/: init, then add-provider, each leaves a project that compiles.
import { serverJourneys } from "./journey.js";

serverJourneys("hono");
