async function f(l,a,n,e,c){let t=await fetch(l,{headers:{Authorization:`Bearer ${a}`,Accept:"text/event-stream"},credentials:"omit",cache:"no-store",signal:n});if(!t.ok||t.body===null){let s=null;try{s=await t.json()}catch{}return{status:t.status,problem:s}}e();let u=t.body.pipeThrough(new TextDecoderStream).getReader(),r="";for(;;){let{value:s,done:d}=await u.read();if(d)break;r+=s;let o=r.indexOf(`

`);for(;o>=0;){let i=m(r.slice(0,o));r=r.slice(o+2),i!==null&&c(i),o=r.indexOf(`

`)}}return{status:t.status,problem:null}}function m(l){let a="message",n="";for(let e of l.split(`
`))e.startsWith("event: ")?a=e.slice(7):e.startsWith("data: ")&&(n+=e.slice(6));if(!n)return null;try{return{event:a,data:JSON.parse(n)}}catch{return null}}export{f as a};
