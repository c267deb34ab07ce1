"""The teaching model's grammar: the patterns `understand` matches, as data (docs/teaching_model.md).

FACTS are what users say about themselves, QUESTIONS what they ask back, OTHER every other kind of
request, TEXT_OPS what they want done to a piece of text. Each is tried in order; the first match wins.
"""
import re


NAME = r"(?P<v>[^\W\d_](?:[^\W\d_]|['-])+(?: (?!(?:btw|please|thanks|now|too|here|again)\b)(?-i:[A-ZÀ-Ý])(?:[^\W\d_]|['-])+)?(?: \d{1,4}\b)?)"
VALUE = r"(?P<v>[^,;!?]+?)"
END = r"\s*(?:please|thanks|thank you|now|btw|by the way|anymore|too|from now on|in case that matters(?: later)?|fyi)?\s*(?=[,;!?]|\.(?:\s|$)|\band (?:i|i'm|my|me|we|you|please|also|then|remember|what|tell|remind|she|he|they|it)\b|\b(?:so|because|since)\b|\bbut\b|$)"
NOT_NAMES = set("""a an the at on in by later back soon now tomorrow tonight today maybe sometime anytime
    asap again please when if crazy called named what whatever anything something nothing you me it that this here there
    sure fine ok okay good great tired hungry busy sorry ready done home happy sad going not just so very
    also still too from with about""".split())
PRONOUNS = set("you u ya it that this them him her me us everything something anything nothing both these those".split())
NOT_PLACES = set("""fear hope denial peace harmony luxury poverty sin dread terror misery comfort style sight silence
    future past present moment dream dreams darkness shame""".split())  # "I live in fear" is not an address
NOT_JOBS = set("""bit little lot big huge real total fan new good great bad person human fast slow vegan vegetarian
    beginner parent mum mom dad father mother morning night
    customer client guest visitor member user subscriber shopper buyer passenger tourist newcomer""".split())  # a relation, no job
TRAITS = set("smoker drinker lover riser sleeper eater snorer worrier runner introvert extrovert".split())  # rule 414: like a job, no job
TIME_UNITS = "minute|hour|day|week|month|year|morning|evening|night|weekend"
WEEKDAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
ASKING = (r"(?:please|pls|plz|kindly|hey|hi|hello|ok|okay|so|and|also|just|actually|oh|hmm|um|wait|right|alright|now|then|"
          r"(?:can|could|would|will) (?:you|u)|(?:i|we)(?: need| want| would like|'d like) (?:you|u)(?: to)?)")  # words that only ask (rule 405)
NUDGE = r"(?:remind|nudge|ping|buzz|alert|notify|text|poke|prompt|warn|bug|wake)"  # "buzz me at 9 to ...": asks for a reminder
VERBS = set("""add subtract multiply divide calculate compute work what whats how who where when why tell
    remember forget delete remove erase note remind schedule plan book buy order write translate explain
    summarise summarize research look find search check reverse shout count make convert give show call
    send open play set please also and can could would will do is are""".split())

ROLE = (r"(?:[a-z]+ ){0,2}(?:[a-z]+(?:er|or|ist|ian|ant)|manager|lead|head|chief|chef|captain|director|nurse|coach|clerk|"
        r"officer|principal|intern|apprentice|associate|analyst|architect|assistant|president|dean|pilot|vet|cook|surgeon|"
        r"barista|medic|paramedic|mechanic|midwife|student|judge|model|guard)")  # what a job title ends in
TITLE = r"(?:manager|lead|head|chief|chef|director|supervisor|coordinator|editor|officer|president|principal|treasurer|secretary)"
SINCE = r"(?: (?:last|this) (?:week|month|year)| (?:yesterday|today|on monday))?"  # "I started as a designer last week"
# (pattern, key): facts a user states about themselves; a key with {k} takes the matched group k
FACTS = [
    (rf"(?:^|\bmy |\bthe )name(?:'s| is) {NAME}{END}", "name"),
    (rf"\b(?:you can |please |just )?call me {NAME}{END}", "name"),
    (rf"\bi go by {NAME}{END}", "name"),
    (rf"\bi(?:'m| am) (?:called|named) {NAME}{END}", "name"),
    (rf"^(?:(?:hi|hello|hey)(?: there| all| everyone)?\W+)?(?:i'm|i am|im|this is) {NAME}{END}", "name"),
    (rf"\bmy (?P<k>[a-z]+(?: [a-z]+)?)(?:'s| 's) name is {NAME}{END}", "{k}_name"),
    (rf"\bmy (?P<k>[a-z]+(?: [a-z]+)?) is (?:called|named) {NAME}{END}", "{k}_name"),
    (rf"\bmy (?P<k>[a-z]+(?: [a-z]+)?) is (?:called|named) (?P<v>[A-Za-z][A-Za-z-]*\d[\w-]*){END}", "{k}_name"),  # rule 252: "Route66"
    (r"\bmy (?P<k>(?:[a-z]+ )?[a-z]+) (?P<v>(?-i:[A-Z][a-z]+))(?= [a-z]+s\b| is\b| 's\b|'s\b)", "{k}_name"),  # "my older sister Rosalind ..."  # "my sister Priya lives in Toronto"
    (rf"\bi(?: have|'ve| have got|'ve got| got) an? (?P<k>[a-z]+) (?:called|named) {NAME}{END}", "{k}_name"),
    (rf"\bi(?:'m| am) allergic to {VALUE}{END}", "allergies"),
    (rf"\bi have an? (?P<v>[a-z]+(?: [a-z]+)?) allergy{END}", "allergies"),
    (rf"\bi (?:can't|cannot|can not|don't|do not|never) (?:eat|drink) {VALUE}{END}", "avoids"),
    (rf"\b(?:i|we) (?:have|'ve got|have got|got|own) an? (?P<k>[a-z]+)\W+(?:(?:she|he|it)(?:'s| is) (?:called|named)|"
     rf"(?:her|his|its) name(?:'s| is)) {NAME}{END}", "{k}_name"),  # "we have a cat, her name's Biscuit"
    (rf"\bi (?:really |also |absolutely |strongly )?(?:hate|dislike|detest|can't stand|cannot stand|"
     rf"don't like|do not like|don't enjoy|do not enjoy) {VALUE}{END}", "dislikes"),
    (rf"\bi (?:really |also |absolutely |do |still )?(?:like|love|enjoy|adore) {VALUE}{END}", "likes"),
    (rf"\bi(?:'m| am) (?:really |totally |so |very )?(?:a (?:big |huge )?fan of|into|crazy about) {VALUE}{END}", "likes"),
    (rf"\bi (?:really |also |much |do )?prefer {VALUE}{END}", "prefers"),
    (rf"\bi(?:'m| am)? (?:now |currently )?(?:work(?:ing)? as|employed as) (?:an? )?{VALUE}{END}", "job"),
    (rf"\bi(?:'ve| have) been (?:working|employed) as (?:an? )?(?P<v>[^,;!?]+?)(?: for [^,;!?]+)?{END}", "job"),
    (rf"\bi(?:'m| am) (?:an? )?(?:big |huge |lifelong |life-long |die-hard |diehard |massive |loyal )?(?P<v>(?-i:[A-Z])[\w'&-]*"
     rf"(?: (?-i:[A-Z])[\w'&-]*)*) (?:supporter|fan)\b{END}", "likes"),
    (rf"\bi (?:work|am working) (?:at|for) {VALUE}{END}", "workplace"),
    (rf"\bi(?:'m| am)? (?:now |currently )?(?:employed|hired|on the payroll) (?:by|at) {VALUE}{END}", "workplace"),
    (rf"\b(?:i )?(?:just |finally )?(?:got|bought|picked up|have) (?:a|my) (?:new |first )?(?P<k>[a-z]+)\W+(?:it'?s |its )?"
     rf"(?P<v>(?:an?|the|\d{{4}}) [^,;!?]+?){END}", "{k}"),  # "just got a new car!! a 2019 Subaru Outback"
    (rf"\bi(?:'ve| have)? (?:re-?trained|trained|qualified) as (?:an? )?{VALUE}{END}", "job"),
    (rf"\bi(?:'m| am) now (?:an? )?(?P<v>(?!the\b)[a-z]+(?: [a-z]+)?){END}", "job"),
    (rf"\bi(?:'ve been| have been|(?: just| recently)? got| was|'ve| have)? (?:now |just |recently )?(?:promoted to (?:an? |the )?|"
     rf"started (?:work(?:ing)? )?as (?:an? |the )?|(?:took|got|landed) a (?:new )?job as (?:an? |the )?)(?:new )?(?P<v>{ROLE}){SINCE}{END}",
     "job"),  # rule 249: "I got promoted to head chef", "I started as a junior designer last week"
    (rf"\bi(?:'m| am) (?:now the |the new |now the new )(?P<v>(?:[a-z]+ ){{0,2}}{TITLE}(?: (?:at|for|in|with) (?:an? |the )?[^,;!?]+?)?){SINCE}{END}", "job"),  # "I'm now the cafe manager"
    (rf"(?:\b(?:actually |so |now )?(?:i|we)(?:'ve| have)? |^\W*)(?:just |recently )?(?:moved|relocated)(?: from [^,;!?]+?)? to "
     rf"{VALUE}{END}",
     "lives_in"),
    (rf"\bi (?:now |currently |still )?live in {VALUE}{END}", "lives_in"),
    (rf"\bi(?:'m| am) (?:now |currently )?(?:living|based|settled|staying) in {VALUE}{END}", "lives_in"),
    (rf"\bi(?:'m| am) (?:originally )?from {VALUE}{END}", "from"),
    (rf"\bi(?:'m| am) (?:now )?(?:at|living at) (?P<v>\d+[a-z]? [A-Z][^,;!?]*?){END}", "lives_in"),  # "I'm at 14 Elm Street now"
    (rf"\bi(?:'m| am) (?:in|at|visiting) (?P<v>[A-Z][^,;!?]*?){END}", "location"),
    (rf"\bi(?:'m| am|m) (?:an? |strictly |fully )?(?P<v>vegan|vegetarian|pescatarian|(?:gluten|lactose|dairy|nut|sugar|"
     rf"meat|wheat|egg|soy|alcohol)[- ](?:free|intolerant)|teetotal|halal|kosher|keto|coeliac|celiac){END}", "diet"),
    (rf"\bi(?:'m| am) (?:now |happily |recently |newly )?(?P<v>married|single|divorced|engaged|widowed|separated){END}", "relationship"),
    (rf"\bi(?:'m| am) (?P<v>\d{{1,3}})(?: years old| years| yo)?{END}", "age"),
    (rf"\bi (?:just )?turned (?P<v>\d{{1,3}}){END}", "age"),
    (r"\bi was born in (?P<v>(?:1[89]|20)\d\d)\b", "birth_year"),
    (rf"\bi was born in (?:1[89]|20)\d\d,? in (?P<v>[A-Z][^,;!?]*?){END}", "birthplace"),
    (rf"\bi was born (?:on|in) (?P<v>(?:[A-Za-z]+ \d|\d|the )[^,;!?]*?){END}", "birthday"),
    (rf"\bi was born in (?P<v>[A-Z][^,;!?]*?){END}", "birthplace"),
    (rf"\bit'?s my birthday (?:on |is )?{VALUE}{END}", "birthday"),
    (rf"\bmy (?:birthday|bday|b-day) is (?:on )?{VALUE}{END}", "birthday"),
    (rf"\b(?:my|our) (?P<k>[a-z]+(?: [a-z]+){{0,2}}) (?:is|are) (?!called|named|not)(?:on )?{VALUE}{END}", "{k}"),
    (rf"(?:^\W*|\b(?:note|remember|save|store|keep|jot down|write down|log|record)\b[^:]*?)\bmy (?P<k>[a-z']+(?: [a-z]+){{0,2}})"
     rf"(?: pls| please)?\s*(?::|,\s*(?:it's|it is|which is))\s*{VALUE}{END}", "{k}"),
    (rf"\bi(?:'m| am) (?P<a>an?) (?P<v>[a-z]+(?: [a-z]+)?(?: (?:at|for|in|with) (?:an? |the )?[^,;!?]+?)?){END}", "is_a"),  # rule 414
]
FILLERS = r"(?:btw|fyi|lol|lmao|haha\w*|tbh|imo|by the way)"  # rule 414: never part of a stored value
# a small table of near-synonyms: the words people use for a thing the grammar already has a key for
NEAR = {"pup": "dog", "puppy": "dog", "doggo": "dog", "kitty": "cat", "kitten": "cat", "hubby": "husband", "wifey": "wife",
        "mom": "mother", "mum": "mother", "mama": "mother", "dad": "father", "papa": "father", "bf": "boyfriend",
        "gf": "girlfriend", "fav": "favourite", "fave": "favourite", "bday": "birthday", "b-day": "birthday",
        "nickname": "name", "hometown": "from", "dietary": "diet", "children": "kids", "child": "kid", "kiddos": "kids", "youngsters": "kids"}
PEOPLE = set("""husband wife partner spouse boyfriend girlfriend son daughter brother sister mum mom mother dad father
    grandma grandmother grandpa grandfather aunt uncle cousin boss friend flatmate roommate colleague coworker niece nephew
    neighbour neighbor kid kids child children""".split())  # a fact about one of them is not the user's
# what a thing is a kind of: "forget my dog" finds `pet: a spaniel`, "which car" finds `ride: a Subaru`
KIND_OF = {"dog": "pet", "cat": "pet", "puppy": "pet", "kitten": "pet", "hamster": "pet", "rabbit": "pet", "parrot": "pet",
           "fish": "pet", "spaniel": "dog", "terrier": "dog", "labrador": "dog", "beagle": "dog", "poodle": "dog",
           "retriever": "dog", "collie": "dog", "dachshund": "dog", "husky": "dog", "pug": "dog", "corgi": "dog", "bulldog": "dog",
           "vegan": "diet", "vegetarian": "diet", "pescatarian": "diet", "keto": "diet", "halal": "diet", "kosher": "diet",
           "car": "vehicle", "ride": "car", "motor": "car", "wheels": "car", "bike": "vehicle", "motorbike": "vehicle",
           "husband": "partner", "wife": "partner", "spouse": "partner", "boyfriend": "partner", "girlfriend": "partner",
           "job": "work", "occupation": "job", "profession": "job", "employer": "work", "allergy": "allergies",
           "food": "diet", "apartment": "address", "flat": "address", "house": "address", "home": "address"}
SAME = {"allergy": "allergies", "address": "lives_in", "home": "lives_in", "city": "lives_in", "occupation": "job",
        "profession": "job", "bday": "birthday", "birth_date": "birthday", "date_of_birth": "birthday",
        "first_name": "name", "line_of_work": "job"}  # words for a key the grammar already has
NOT_KEYS = set("question answer problem point guess pleasure bad fault turn is favourite favorite".split())
# (pattern, key): questions about the user; "*" is everything
QUESTIONS = [
    (r"\b(?:what do you know|what do you remember|what have you (?:got|stored|remembered)|tell me what you know)"
     r"(?: about me)?\b|\bwhat(?:'s| is) in (?:your )?memory\b|\btell me about myself\b|"
     r"\bwhat (?:do|did|have) you (?:have|got|keep|hold|store|save|record|log)(?:\s+(?:stored|saved|kept|remembered|noted|recorded|"
     r"logged|written down|on file|in (?:your )?memory))*\s+(?:about|on|for) me\b|\bwhat(?:'s| is| have you| has been) (?:stored|saved|"
     r"kept|remembered|noted|recorded|on file|in (?:your )?(?:memory|notes))(?:\s+(?:stored|saved|on file))? (?:about|on|for) me\b|"
     r"^\W*(?:(?:can|could) you |please )?(?:what|which|(?:show|tell) me(?: what| all| everything)?|list(?: what| all| everything)?)\b(?:\s+(?:info|information|data|details|facts|"
     r"notes|memories|everything|all|things|stuff))?(?:\s+(?:that|which))?\s+(?:do |did |have )?you(?:'ve| have)?\s+(?:got |already )?"
     r"(?:know|remember|have|got|keep|hold|stored|saved|recorded|logged|noted|kept)\b(?:\s+(?:stored|saved|on file|in memory))?"
     r"\s+(?:about|on) me\b|^\W*(?:(?:can|could) you |please )?(?:list|show(?: me)?|read (?:out|back)|give me|tell me)\s+(?:all )?(?:of )?"
     r"(?:my|your) (?:memories|notes|saved facts|stored facts|facts|profile)(?: about me)?\W*$|\bwhat(?:'s| is) in my profile\b|"
     r"\bwhat (?:have|did) i (?:told|tell) you about (?:me|myself)\b", "*"),  # rule 197
    (r"\bwho am i (?:married to|with|dating|engaged to|seeing)\b|\bwho(?:'s| is) my (?:spouse|other half|significant other)\b",
     "husband_name|wife_name|partner_name|spouse_name|boyfriend_name|girlfriend_name|fiance_name|fiancee_name"),
    (r"\bwho am i\W*$|\bwhat am i called\b|\bwhat(?:'s| is| was) my name\b|\bdo you (?:know|remember) (?:who i am|my name)\b|\bwhat (?:do|should|will|did) you call me\b",
     "name"),
    (r"\b(?:what|who)(?:'s| is| was| are)? my (?P<k>[a-z]+(?: [a-z]+)?)(?:'s| 's) name\b", "{k}_name"),
    (r"\bwhat(?:'s| is) my (?P<k>[a-z]+(?: [a-z]+)?) called\b|\bwhat did i (?:call|name) my (?P<k2>[a-z]+)\b", "{k}_name"),
    (r"\bwhat(?:'s| is) the name of my (?P<k>[a-z]+(?: [a-z]+)?)\b", "{k}_name"),
    (r"\bwho(?:'s| is) my (?P<k>[a-z]+(?: [a-z]+)?)\b", "{k}_name"),
    (r"\bwhat (?:are|were) (?:the names of )?my (?P<k>[a-z]+)(?:'s?|s')? names?\b|\b(?:can you )?name my (?P<k2>[a-z]+)\b",
     "{k}_name"),
    (r"\b(?:anything|something|what do you know|what do you have|tell me(?: anything)?|any notes?|what(?:'s| is) there) "
     r"(?:about|on|regarding) my (?P<k>[a-z]+(?: [a-z]+)?)\b", "{k}"),
    (r"\b(?:anything|something|what)\b[^.?!]*\b(?:about|regarding|with|for) (?:what i (?:eat|drink|can eat)|my (?:food|meals?|"
     r"eating|diet|cooking|dinners?|lunch(?:es)?))\b", "avoids|allergies|diet|dislikes"),  # rule 356: what I eat is diet and allergies
    (r"\b(?:any|what|which|are there) (?:foods?|things?|drinks?|ingredients?)(?: that)? (?:do )?i (?:should|must|need to|have to|"
     r"ought to) (?:avoid|stay away from)\b|"
     r"\bwhat (?:should|must|do) i (?:avoid|stay away from)\b|\b(?:what|which|any) (?:foods?|things?|drinks?|ingredients?) "
     r"(?:should|must|do|need) i (?:avoid|stay away from|not eat)\b|"
     r"\bwhat (?:can't|cannot|can not|don't|do not|shouldn't|should not|mustn't) i (?:eat|drink|have)\b|\banything i (?:should|must|need "
     r"to|have to|ought to) avoid\b|\bwhat am i unable to "
     r"(?:eat|drink)\b|\banything i (?:can't|cannot|shouldn't|should not|mustn't) (?:eat|drink)\b", "avoids|allergies|diet|dislikes"),
    (r"\b(?:what|which|anything|something|any \w+)\b[^.?!]*\b(?:do )?i react(?: (?:badly|poorly|strongly))? to\b|"
     r"\b(?:what|which|anything|something) (?:am i|are i) (?:intolerant|sensitive) to\b|"
     r"\b(?:what|which|anything|something|any \w+)\b[^.?!]* (?:makes?|gives?) me (?:ill|sick|a reaction|hives)\b", "allergies"),  # "any food I react badly to?": what they're allergic to
    (r"\bwhat am i allergic to\b|\b(?:do i have|what are) (?:any )?(?:my )?allergies\b|\bam i allergic\b|\bany allergies\b", "allergies"),
    (r"\b(?:what|which) (?:[a-z]+ )?do i (?:hate|dislike|not like|detest)\b|\b(?:what|which) (?:[a-z]+ )?don't i like\b", "dislikes"),
    (r"\bwhat (?:am i|are i) (?:afraid|scared|frightened|terrified) of\b|\bwhat are my fears\b|\bwhat do i fear\b", "fears"),
    (r"\bhow tall am i\b", "height"),
    (r"\bwhat (?:do|did) i (?:say i )?(?:like|love|enjoy)\b|\bwhat are my (?:likes|hobbies|interests)\b|^\W*do i (?:like|love|enjoy)\b|\bwhat i (?:like|love|enjoy)\b|\bwhat am i (?:into|a fan of)\b", "likes"),
    (r"\bwhat do i (?:prefer|drink)\b|\bwhat(?:'s| is) my preference\b", "prefers"),
    (r"\bwhere do i work\b|\bwho do i work for\b", "workplace"),
    (r"\bwhat do i do\b|\bwhat(?:'s| is) my (?:job|occupation|profession|work)\b|\bwhat do i work as\b", "job"),
    (r"\bwhere (?:do|did) i (?:say i |tell you i )?(?:live|stay)\b|\b(?:which|what) (?:city|town|country|place) do i live in\b|\bwhere(?:'s| is) my home\b|\bwhere did i move\b", "lives_in"),
    (r"\b(?:where|(?:what|which|in what|in which) (?:city|town|country|place|village)) was i born\b", "birthplace"),
    (r"\bwhere (?:was i (?:raised|brought up)|did i grow up)\b", "user_grew|from|birthplace"),
    (r"\bwhere am i from\b|\bwhere do i come from\b", "from"),
    (r"\bwhere am i\b|\bwhat (?:city|town|country|place) am i in\b", "location"),
    (r"\bhow old am i\b|\bwhat(?:'s| is) my age\b", "age"),
    (r"\bwhen(?:'s| is| was) my (?:birthday|bday)\b|\bwhen was i born\b|\bwhat(?:'s| is) my (?:birthday|birth date|date of birth)\b",
     "birthday"),
    (r"\bwhat did i ask you to remember\b|\bwhat did i tell you to remember\b", "note"),
    (r"\b(?:what|when|where|which)(?:'s| is| are| was)? my (?P<k>[a-z]+(?: [a-z]+){0,2}?)(?: called)?(?: like| again| now| please)?\W*$",
     "{k}"),
    (r"\bwhat (?P<k>[a-z]+(?: [a-z]+)?) do i (?:like|love|prefer)(?: best| most)?\b", "favourite_{k}"),
    (r"\bwhat (?P<k>[a-z]+(?: [a-z]+)?) do i (?:have|own|drive|use|play|speak|ride)\b", "{k}"),
    (r"\bremind me (?:of |what )?my (?P<k>[a-z]+(?: [a-z]+)?)(?: is| was)?\W*$", "{k}"),
    (r"\bdo you (?:know|remember) my (?P<k>[a-z]+(?: [a-z]+)?)\b|\btell me my (?P<k2>[a-z]+(?: [a-z]+)?)\b", "{k}"),
]
OTHER = [  # (pattern, kind, slot names from the groups)
    (r"\b(?:bomb|explosives?|malware|ransomware|hack into|steal|poison someone)\b", "harmful"),
    (rf"^\W*(?:{ASKING}\W+)*(?:remind me|(?:(?:set|make|create|add|get)(?: me| up)?|(?:i|we)(?: need| want| would like|'d like)) (?:a|an|a new|another) "
     r"(?:reminder|alarm|event|task))"  # "i need an alarm": what or when is asked (rule 410)
     r"(?P<task>)(?:\W*\b(?:please|pls|for me|thanks|now))*\W*$", "schedule"),  # nothing to remind of: the model asks what
    (rf"\b{NUDGE} me (?P<when>(?:in|at|on|tomorrow|tonight|next|every|each|this)\b.*?) to (?P<task>.+?)[.!?]*$", "schedule"),
    (r"^\W*(?P<when>(?:every|each|on|tomorrow|tonight|next|this|in|at)\b[^,]*?),? (?:please )?remind me to (?P<task>.+?)[.!?]*$",
     "schedule"),  # "every Sunday remind me to call grandma"
    (rf"\b(?:{NUDGE} me|set a reminder|reminder)\s*:?\s*(?:to|about|that|for)?\s+(?P<task>.+?)"
     rf"(?:\s+(?P<when>(?:in|at|on|tomorrow|tonight|next|every|later|this)\b.*?))?{END}", "schedule"),
    (rf"^(?![^?]*\?\s*$)(?:please )?(?P<task>(?!i\b|my\b|we\b|is\b|are\b|do\b|does\b|should\b|can\b|how\b|why\b|what\b)"
     rf"[a-z]+ .+?) (?P<when>every (?:\d+ |other )?(?:{TIME_UNITS}|{WEEKDAYS})s?){END}", "schedule"),
    (r"^\W*(?:please |can you |could you )?(?:book|arrange|set up|schedule|organi[sz]e) (?:me )?(?:an? |my )?(?P<task>[a-z]+(?: [a-z]+)?"
     r"(?: appointment)?(?: with (?:the |my )?[a-z]+(?: [a-z]+)?)?)(?: for me)?\W*$", "schedule"),  # "book a meeting with Sarah" (rule 341)  # "book me a haircut": the time is asked for
    (r"^\W*(?:please |pls |can you |could you )?(?:add|put|pop|stick|write|enter|pencil) ['\"‘“]?(?P<task>(?!it\b|that\b|this\b)[^'\"’”,.;!?]{2,60}?)"
     r"['\"’”]? (?:in|on|to|into|onto) (?:my|our|the) (?:calendar|diary|agenda|planner|schedule)(?: for me)?(?:,? please)?\W*$",
     "schedule"),  # "put 'water the plants' on my calendar": no time said, so it is asked for (rule 420)
    (r"\b(?:find sources on|search for sources on)\s+(?P<topic>.+?)[.!?]*$", "sources"),
    (r"\btake notes on\s+(?P<topic>.+?)[.!?]*$", "notes"),
    (r"\b(?:summari[sz]e|sum up|write a summary of|give me a summary of|tl;?dr)\b:?\s*(?:what (?:we|you) know about|"
     r"the findings on|everything about)?\s*(?P<topic>.*?)[.!?]*$", "summarise"),
    (r"\b(?:research|look up|look into|find out about|investigate|find information (?:on|about)|search (?:the web )?for)"
     r"\s+(?P<topic>.+?)[.!?]*$", "research"),
    (r"\b(?i:wish) (?i:the user|me|them|him|her|[A-Z][a-z]+) (?:an? )?(?P<greeting>.+?)[.!]*$", "wish"),
    (r"\b(?i:weather|temperature|forecast)\b.*?\bin (?P<cities>[A-Z][\w ,]*?(?:and [A-Z]\w*)?)[?.!]*$", "weather"),
    (r"\bwhat time is it\b|\bwhat(?:'s| is) the time\b|\bthe time (?:now|please)\b|\bcurrent time\b|\bwhat day is (?:it|today)\b|"
     r"\btoday'?s date\b|\bwhat(?:'s| is) the date\b|^\W*(?:what )?time\W*$", "clock"),  # not "what time is my flight?"
    (r"\bcapital (?:city )?of (?P<country>[a-z]+)", "capital"),
    (r"\bjoke\b", "joke"),
    (r"\bwho are you\b|\bwhat are you\b|\bare you (?:an? )?(?:ai|llm|bot|robot|real|human|person)\b|\bwhat (?:can you|you can) do\b",
     "identity"),
    (r"^\W*(?:hi|hello|hey|hiya|howdy|good (?:morning|afternoon|evening))\b", "greet"),
    (r"^\W*(?:thanks|thank you|thx|cheers|ty)\b", "thanks"),
    (r"^\W*(?:how are you|how's it going|how are things|what's up|whats up|sup)\b", "smalltalk"),
    (r"^\W*(?:ok |okay )?(?:thanks )?(?:bye|goodbye|good night|see you|see ya|cya)\b", "bye"),
    (r"^\W*(?:never ?mind|no worries|ok|okay|cool|great|nice|sure|fine|got it|alright)\W*$", "okay"),
    (r"\bwhich (?:one |number )?is (?P<which>bigger|larger|greater|higher|more|smaller|less|lower|lesser)\b.*?"
     r"(?P<a>-?\d+(?:\.\d+)?)\s*(?:or|vs\.?|versus|and)\s*(?P<b>-?\d+(?:\.\d+)?)", "compare"),
    (r"^\W*(?:please |pls )?(?:fix|update|correct|change) (?:that|it|this)(?: (?:please|pls|for me))?\W*$", "okay"),
]
EACH_WORD = (r"\b(?:(?:letters|characters) (?:inside|in|of|within) (?:each|every) word|(?:each|every) word(?:'s letters)?(?! order)(?! intact)|"
             r"keep(?:s|ing)? (?:the |them in )?(?:word )?order|word order (?:is |stays )?(?:kept|unchanged|the same))\b")
WORD_ORDER = (r"(?!.*" + EACH_WORD + r")"  # "reverse each word, keeping the word order": the letters inside each word
              r"\b(?:order of (?:the |its |their )?words|word order|words? (?:in|into) (?:the )?(?:reverse|reversed|opposite|backwards?) order|"
              r"(?:reverse|flip|invert|swap|turn around) (?:the |all the |its |all its )?words|words? backwards|each word intact|words? (?:reversed|flipped)|"
              r"words\b.{0,40}\bin (?:the )?(?:reverse|reversed|opposite|backwards?) order)\b")
TEXT_OPS = [  # (what the user says, the operation)
    (r"\bhow many (?:times does )?(?:the )?(?:letter )?[\"']?(?P<letter>[a-z])[\"']?(?:'s|s)?\b.*?\bin\b", "count_letter"),
    (r"\bcount the (?P<letter>[a-z])(?:'s|s)\b", "count_letter"),
    (r"\bcount (?:the )?(?:letter |number of )[\"']?(?P<letter>[a-z])[\"']?(?:'s|s)?\s+in\b", "count_letter"),
    (r"\bhow many words\b|\bcount (?:the )?words\b|\bword count\b|\bnumber of words\b|\bhow long\b.*\bin words\b", "count_words"),
    (r"\b(?:acronyms?|initials|initialism|abbreviat\w*)\b|\bfirst letters\b(?! of (?:each|every) word)", "acronym"),  # rule 157
    (r"\b(?:each|every|all the) words?\b[^.:\"“']{0,30}\b(?:a capital|capitali[sz]ed|upper ?case)\b|\bcapitali[sz]e (?:the )?first letters?\b|"
     r"\bcapital (?:first )?letters? (?:at the start )?(?:of|for|on) (?:each|every) word\b", "titlecase"),  # "each word starting with a capital"
    (r"\b(?:upper ?case|capitals|capital letters|all caps|caps|shout|yell|scream|loud|louder|loudly)\b", "uppercase"),
    (r"\b(?:lower ?case|small letters|whisper|quiet|quieter|quietly|softer|softly)\b", "lowercase"),
    (r"\btitle[- ]?cased?\b|\blike a (?:book |film |movie )?title\b|\bcapitali[sz]e (?:each|every|all the|the first letter of each) "
     r"words?\b", "titlecase"),
    (r"\b(?:sort|alphabeti[sz]e)\b(?!\s+(?:out|of)\b)(?=[^.?!]*(?:[:\"“'‘]|\b(?:these|this|words|names|list|items)\b))|\b(?:in(?:to)?|by) (?:abc|alphabetical) order\b|\balphabetically\b", "sort_words"),
    (r"(?:\bhow (?:long|many characters)\b|\bnumber of (?:characters|chars)\b|\blength of\b|\bcharacter count\b)"
     r"(?=.*(?:[\"“'‘:]|\bthe word\b|\bis (?:[a-z]{6,})?\W*$))", "length"),  # only of a text given: "how long is my commute?" is not about characters
    (rf"\b(?:reverse|flip|mirror|backwards)\b.*{EACH_WORD}|{EACH_WORD}.*\b(?:reversed|backwards|flipped)\b", "reverse_each"),  # "reverse each word"
    (WORD_ORDER, "reverse_words"),  # "reverse the order of the words in ...", "flip the word order of ..."
    (rf"(?!.*{WORD_ORDER})(?!.*{EACH_WORD})"  # "flip the word order of ...": the words, not the letters
     r"(?:\b(?:reverse|reversed|backwards|back to front)\b|\b(?:flip|mirror)\b(?= (?:the |this )?(?:text|word|string|sentence|letters|result|output)\b|\s*[\"'“]| (?:it|that)\b)"
     r"|\b(?:flip|turn|spin)\s+(?:\S+\s+){0,4}?(?:around|round|backwards)\b)",
     "reverse"),
]


# rule 380: common misspellings of the command verbs, read as the verbs ("pls forgt my gym schedule")
MISSPELT = {"forget": "forgt foget forgett frget fogret", "remember": "remeber rember remmber remembr rememeber remmeber",
            "delete": "delet delte dlete deleet", "remove": "remvoe remov", "schedule": "shedule schedual scedule schdule",
            "remind": "remnd remid reimnd", "reminder": "remnder reminer"}
SPELT_AS = {typo: verb for verb, typos in MISSPELT.items() for typo in typos.split()}


def spelled_right(text: str) -> str:
    """A command verb misspelt in a common way, as the verb; every other word as written."""
    return re.sub(r"\b[a-z]+\b", lambda m: SPELT_AS.get(m.group().lower(), m.group()), text, flags=re.I) if text else text
