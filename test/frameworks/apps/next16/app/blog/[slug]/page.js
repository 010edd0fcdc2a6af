// The page a search result links to (the test fetches each result's url as returned).
export default async function Page({ params }) {
  const { slug } = await params;
  return <h1>{slug}</h1>;
}
