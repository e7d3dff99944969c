/** `--orm none`: no ORM; the backend's generated adapter (SQL over the driver, memory, skeleton) as before. */
import { defineOrm } from "./orm.js";

export const noOrm = defineOrm({
  id: "none",
  title: "None",
  hint: "an adapter written for you over the database driver",
});
