import "./background-work.ts"; // moved: the production build's entry until vite.node.config.ts names jobs/background-work.ts
