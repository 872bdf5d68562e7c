// Hds.g4 — the grammar of the hds kernel language.
//
// The parser generated from this file is used only by frontend/ast_builder.cpp,
// which turns the parse tree into our own AST. Nothing generated is committed:
// CMake runs Debian's antlr4 tool into the build tree.
grammar Hds;

file : item* EOF ;

item
    : importDecl
    | targetDecl
    | constDecl
    | kernelDecl
    | kernelInstance
    | deviceFnDecl
    | opDecl
    | graphDecl
    ;

importDecl   : 'import' STRING ';' ;
// `target sm_90a;`: the GPU the file is compiled for (docs/cli.md, "The target").
targetDecl   : 'target' ID ';' ;
constDecl    : 'const' ID ':' typeRef '=' expr ';' ;
kernelDecl   : 'kernel' ID typeParams? '(' paramList? ')' launchConfig block ;
// Element-type parameters `T`, or integer parameters `STAGES: i32 = 3` (kernels),
// optionally with the values `hdsc tune` tries: `BN: i32 = 256 in {128, 256}`.
typeParams   : '<' typeParam (',' typeParam)* '>' ;
typeParam    : ID (':' scalarType ('=' expr ('in' '{' exprList '}')?)?)? ;
// `kernel matmul_f16 = matmul_mma<f16, 4>;` instantiates a generic kernel.
kernelInstance : 'kernel' ID '=' ID '<' expr (',' expr)* '>' ';' ;
launchConfig : 'grid' '(' exprList ')' 'block' '(' exprList ')' ('cluster' '(' cluster=expr ')')?
               ('min_blocks_per_sm' '(' minBlocks=expr ')')? ;
deviceFnDecl : 'device' 'fn' ID '(' paramList? ')' ('->' typeRef)? block ;

paramList : param (',' param)* ;
param     : ID ':' typeRef ('=' expr)? ;

// Operators: generic over element types (typeParams) and shapes (`*S` spreads);
// `compute` defines a tensor elementwise (the last one is the result),
// `schedule` names a generic kernel that implements the op (for some element
// types, for the sizes where `when` holds; `pad(...)`: on zero-padded copies where needed;
// `then K2`: a second kernel that reads a tensor the first writes and writes the result);
// `require` states a condition on the op's sizes that every call must meet.
opDecl    : 'op' ID typeParams? '(' paramList? ')' '->' typeRef '{' opItem* '}' ;
opItem
    : 'compute' ID '[' exprList ']' '=' expr ';'            # computeItem
    | 'schedule' ID '=' ID scheduleArgs? scheduleThen? ('for' ID (',' ID)*)? ('when' expr)? schedulePad? ';'  # scheduleItem
    | 'require' expr ';'                                     # requireItem
    ;
// `<BM = 64, BN = 128>`: values of the schedule kernel's integer parameters.
scheduleArgs : '<' scheduleArg (',' scheduleArg)* '>' ;
scheduleArg  : ID '=' INT ;
// `then combine`: the kernel run after the first (the word `then` is checked by the AST
// builder: not a keyword).
scheduleThen : ID ID ;
// `pad(K, N)`: where those sizes do not give rows of 16-byte multiples, the schedule runs on
// zero-padded copies (the word `pad` is checked by the AST builder: not a keyword).
schedulePad  : ID '(' ID (',' ID)* ')' ;
// Graphs: `let` and `return` statements over operator calls.
graphDecl : 'graph' ID '(' paramList? ')' '->' typeRef block ;

typeRef   : memSpace? scalarType ('[' exprList ']')? ;
memSpace  : 'shared' | 'register' | 'global' ;
scalarType: ID ;

block : '{' stmt* '}' ;

stmt
    : attribute* 'for' forTargets 'in' expr forTail block   # forStmt
    | 'let' ID (':' typeRef)? '=' expr ';'                   # letStmt
    | 'var' ID ':' typeRef ('=' expr)? ';'                   # varStmt
    | 'var' ID '=' expr ';'                                  # varInferStmt
    | 'if' '(' expr ')' block ('else' (block | ifOnly))?     # ifStmt
    | 'return' expr? ';'                                     # returnStmt
    | 'break' ';'                                            # breakStmt
    | 'continue' ';'                                         # continueStmt
    | expr assignOp expr ';'                                 # assignStmt
    | expr ';'                                               # exprStmt
    | block                                                  # blockStmt
    ;

ifOnly    : 'if' '(' expr ')' block ('else' (block | ifOnly))? ;
attribute : '@' ID ;
forTargets: ID | '(' ID (',' ID)* ')' ;
forTail   : ('..' hi=expr ('step' step=expr)?)? ('on' worker=expr)? ;
assignOp  : '=' | '+=' | '-=' | '*=' | '/=' | '%=' | '&=' | '|=' | '^=' | '<<=' | '>>=' ;

expr
    : primary                                               # primaryExpr
    | expr '.' ID                                           # memberExpr
    | expr '[' exprList ']'                                 # indexExpr
    | op=('-' | '!' | '~') expr                             # unaryExpr
    | expr op=('*' | '/' | '%') expr                        # binaryExpr
    | expr op=('+' | '-') expr                              # binaryExpr
    | expr op=('<<' | '>>') expr                            # binaryExpr
    | expr op=('<' | '<=' | '>' | '>=') expr                # binaryExpr
    | expr op=('==' | '!=') expr                            # binaryExpr
    | expr op='&' expr                                      # binaryExpr
    | expr op='^' expr                                      # binaryExpr
    | expr op='|' expr                                      # binaryExpr
    | expr op='&&' expr                                     # binaryExpr
    | expr op='||' expr                                     # binaryExpr
    | <assoc=right> expr '?' expr ':' expr                  # condExpr
    ;

primary
    : INT                                                   # intLit
    | FLOAT                                                 # floatLit
    | ('true' | 'false')                                    # boolLit
    | 'cast' '<' scalarType '>' '(' expr ')'                # castExpr
    | ID '(' argList? ')'                                   # callExpr
    | ID                                                    # nameExpr
    | '(' expr ')'                                          # parenExpr
    | '[' exprList? ']'                                     # listExpr
    | '*' ID                                                # spreadExpr
    | ID '(' reduceRange (',' reduceRange)* ')' expr        # reduceExpr
    ;

reduceRange : ID 'in' expr '..' expr ;

argList  : arg (',' arg)* ;
arg      : (ID '=')? expr ;
exprList : expr (',' expr)* ;

INT     : ([0-9]+ | '0x' [0-9a-fA-F]+) INTSUFFIX? ;
FLOAT   : [0-9]+ '.' [0-9]+ EXPONENT? FLOATSUFFIX?
        | [0-9]+ EXPONENT FLOATSUFFIX?
        | [0-9]+ FLOATSUFFIX
        ;
fragment EXPONENT    : [eE] [+-]? [0-9]+ ;
fragment FLOATSUFFIX : 'f16' | 'bf16' | 'f32' | 'f64' ;
fragment INTSUFFIX   : 'i8' | 'i16' | 'i32' | 'i64' | 'u8' | 'u32' | 'u64' ;
STRING  : '"' (~["\\\r\n] | '\\' .)* '"' ;
ID      : [a-zA-Z_] [a-zA-Z_0-9]* ;
WS      : [ \t\r\n]+ -> skip ;
LINE_COMMENT  : '//' ~[\r\n]* -> skip ;
BLOCK_COMMENT : '/*' .*? '*/' -> skip ;
// Any other character becomes a token the parser rejects with a located error.
INVALID : . ;
