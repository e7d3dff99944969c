// The db layer's tests load the prisma fixture's client: generated once per schema change.
import { generatePrismaClient } from "../../scripts/prisma-client.js";

export default generatePrismaClient;
