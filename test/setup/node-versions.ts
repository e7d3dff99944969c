// The node-versions layer runs the Node binaries users run: fetched once into .cache/node/.
import { fetchMissingNodes } from "../../scripts/node-versions.js";

export default function setup(): void {
  fetchMissingNodes();
}
