export { Moment } from "./moment.tsx";
