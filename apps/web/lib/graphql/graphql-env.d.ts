/**
 * The API's schema as gql.tada reads it. Generated from apps/api/schema.graphql by
 * `npm run schema -w @racelab/api`: do not edit.
 */
export type introspection = {
  name: never;
  query: 'Query';
  mutation: 'Mutation';
  subscription: 'Subscription';
  types: {
    Actor: {
      kind: 'OBJECT';
      name: 'Actor';
      fields: {
        description: {
          name: 'description';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        id: { name: 'id'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        kind: {
          name: 'kind';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        label: {
          name: 'label';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        tokenId: { name: 'tokenId'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        via: { name: 'via'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
      };
    };
    AppendPreview: {
      kind: 'OBJECT';
      name: 'AppendPreview';
      fields: {
        day: {
          name: 'day';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        files: {
          name: 'files';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'AppendedFile'; ofType: null } };
            };
          };
        };
      };
    };
    AppendedFile: {
      kind: 'OBJECT';
      name: 'AppendedFile';
      fields: {
        partitionValues: {
          name: 'partitionValues';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'KeyValue'; ofType: null } };
            };
          };
        };
        stats: {
          name: 'stats';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
      };
    };
    AttemptError: {
      kind: 'OBJECT';
      name: 'AttemptError';
      fields: {
        attempt: {
          name: 'attempt';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        errorClass: {
          name: 'errorClass';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        errorMessage: {
          name: 'errorMessage';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        readVersion: { name: 'readVersion'; type: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
      };
    };
    AuditedJob: {
      kind: 'OBJECT';
      name: 'AuditedJob';
      fields: {
        engine: {
          name: 'engine';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        name: {
          name: 'name';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        operation: {
          name: 'operation';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        predicate: { name: 'predicate'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        table: {
          name: 'table';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        tableProperties: {
          name: 'tableProperties';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'KeyValue'; ofType: null } };
            };
          };
        };
      };
    };
    Boolean: unknown;
    CodeAuditFiles: {
      kind: 'OBJECT';
      name: 'CodeAuditFiles';
      fields: {
        scanned: {
          name: 'scanned';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        skipped: {
          name: 'skipped';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: {
                kind: 'NON_NULL';
                name: never;
                ofType: { kind: 'OBJECT'; name: 'CodeSkippedFile'; ofType: null };
              };
            };
          };
        };
        unparseable: {
          name: 'unparseable';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: {
                kind: 'NON_NULL';
                name: never;
                ofType: { kind: 'OBJECT'; name: 'CodeFileProblem'; ofType: null };
              };
            };
          };
        };
      };
    };
    CodeAuditResult: {
      kind: 'OBJECT';
      name: 'CodeAuditResult';
      fields: {
        auditedAt: {
          name: 'auditedAt';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        failed: {
          name: 'failed';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Boolean'; ofType: null } };
        };
        files: {
          name: 'files';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'CodeAuditFiles'; ofType: null } };
        };
        findings: {
          name: 'findings';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'CodeFinding'; ofType: null } };
            };
          };
        };
        id: {
          name: 'id';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'ID'; ofType: null } };
        };
        settings: {
          name: 'settings';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'CodeSetting'; ofType: null } };
            };
          };
        };
        source: {
          name: 'source';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        startedBy: { name: 'startedBy'; type: { kind: 'OBJECT'; name: 'Actor'; ofType: null } };
      };
    };
    CodeFileProblem: {
      kind: 'OBJECT';
      name: 'CodeFileProblem';
      fields: {
        column: {
          name: 'column';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        file: {
          name: 'file';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        line: {
          name: 'line';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        message: {
          name: 'message';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
      };
    };
    CodeFinding: {
      kind: 'OBJECT';
      name: 'CodeFinding';
      fields: {
        at: {
          name: 'at';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'CodePlace'; ofType: null } };
        };
        evidence: {
          name: 'evidence';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        fix: {
          name: 'fix';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        related: {
          name: 'related';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'CodePlace'; ofType: null } };
            };
          };
        };
        rule: {
          name: 'rule';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        severity: {
          name: 'severity';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        table: { name: 'table'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
      };
    };
    CodePlace: {
      kind: 'OBJECT';
      name: 'CodePlace';
      fields: {
        column: {
          name: 'column';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        endColumn: { name: 'endColumn'; type: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        file: {
          name: 'file';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        line: {
          name: 'line';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        message: { name: 'message'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        snippet: { name: 'snippet'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
      };
    };
    CodeSetting: {
      kind: 'OBJECT';
      name: 'CodeSetting';
      fields: {
        column: {
          name: 'column';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        constant: {
          name: 'constant';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Boolean'; ofType: null } };
        };
        endColumn: {
          name: 'endColumn';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        endLine: { name: 'endLine'; type: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        file: {
          name: 'file';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        key: {
          name: 'key';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        keyLine: { name: 'keyLine'; type: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        kind: {
          name: 'kind';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        language: {
          name: 'language';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        line: {
          name: 'line';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        raw: {
          name: 'raw';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        table: { name: 'table'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        value: { name: 'value'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        via: {
          name: 'via';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        writer: { name: 'writer'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
      };
    };
    CodeSkippedFile: {
      kind: 'OBJECT';
      name: 'CodeSkippedFile';
      fields: {
        file: {
          name: 'file';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        reason: {
          name: 'reason';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
      };
    };
    ConflictPrediction: {
      kind: 'OBJECT';
      name: 'ConflictPrediction';
      fields: {
        byEngine: {
          name: 'byEngine';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: {
                kind: 'NON_NULL';
                name: never;
                ofType: { kind: 'OBJECT'; name: 'EngineForecast'; ofType: null };
              };
            };
          };
        };
        failedCheck: { name: 'failedCheck'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        firstTouchesFiles: {
          name: 'firstTouchesFiles';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        isolationLevel: {
          name: 'isolationLevel';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        message: { name: 'message'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        nothingToCommit: {
          name: 'nothingToCommit';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
            };
          };
        };
        secondCommits: {
          name: 'secondCommits';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Boolean'; ofType: null } };
        };
        secondReadsFiles: {
          name: 'secondReadsFiles';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
      };
    };
    EngineForecast: {
      kind: 'OBJECT';
      name: 'EngineForecast';
      fields: {
        commits: {
          name: 'commits';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Boolean'; ofType: null } };
        };
        engine: {
          name: 'engine';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        failedCheck: { name: 'failedCheck'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        isolationLevel: { name: 'isolationLevel'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        message: { name: 'message'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        note: { name: 'note'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
      };
    };
    EngineInterpretation: {
      kind: 'OBJECT';
      name: 'EngineInterpretation';
      fields: {
        effectiveLevel: { name: 'effectiveLevel'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        engine: {
          name: 'engine';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        error: { name: 'error'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        flagged: {
          name: 'flagged';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Boolean'; ofType: null } };
        };
        message: {
          name: 'message';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        outcome: {
          name: 'outcome';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        suggestion: { name: 'suggestion'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
      };
    };
    FailedWriterCheck: {
      kind: 'OBJECT';
      name: 'FailedWriterCheck';
      fields: {
        name: {
          name: 'name';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        rowsTouched: {
          name: 'rowsTouched';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        summary: {
          name: 'summary';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        untouched: {
          name: 'untouched';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Boolean'; ofType: null } };
        };
      };
    };
    Float: unknown;
    HistoryBusiestHour: {
      kind: 'OBJECT';
      name: 'HistoryBusiestHour';
      fields: {
        commits: {
          name: 'commits';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        concurrentCommits: {
          name: 'concurrentCommits';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        start: {
          name: 'start';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
      };
    };
    HistoryCommit: {
      kind: 'OBJECT';
      name: 'HistoryCommit';
      fields: {
        adds: {
          name: 'adds';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        concurrentWith: {
          name: 'concurrentWith';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
            };
          };
        };
        evidence: {
          name: 'evidence';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        isBlindAppend: { name: 'isBlindAppend'; type: { kind: 'SCALAR'; name: 'Boolean'; ofType: null } };
        isolationLevel: { name: 'isolationLevel'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        isolationProperty: { name: 'isolationProperty'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        operation: { name: 'operation'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        predicate: { name: 'predicate'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        readVersion: { name: 'readVersion'; type: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        removes: {
          name: 'removes';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        startedAt: { name: 'startedAt'; type: { kind: 'SCALAR'; name: 'Float'; ofType: null } };
        timestamp: { name: 'timestamp'; type: { kind: 'SCALAR'; name: 'Float'; ofType: null } };
        version: {
          name: 'version';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        writer: {
          name: 'writer';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'HistoryWriter'; ofType: null } };
        };
      };
    };
    HistoryDuplicateKey: {
      kind: 'OBJECT';
      name: 'HistoryDuplicateKey';
      fields: {
        addedBy: {
          name: 'addedBy';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: {
                kind: 'NON_NULL';
                name: never;
                ofType: { kind: 'OBJECT'; name: 'HistoryDuplicateSource'; ofType: null };
              };
            };
          };
        };
        count: {
          name: 'count';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        values: {
          name: 'values';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'KeyValue'; ofType: null } };
            };
          };
        };
      };
    };
    HistoryDuplicateKeys: {
      kind: 'OBJECT';
      name: 'HistoryDuplicateKeys';
      fields: {
        atVersion: {
          name: 'atVersion';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        distinct: {
          name: 'distinct';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        key: {
          name: 'key';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
            };
          };
        };
        keys: {
          name: 'keys';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: {
                kind: 'NON_NULL';
                name: never;
                ofType: { kind: 'OBJECT'; name: 'HistoryDuplicateKey'; ofType: null };
              };
            };
          };
        };
        truncated: {
          name: 'truncated';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Boolean'; ofType: null } };
        };
      };
    };
    HistoryDuplicateSource: {
      kind: 'OBJECT';
      name: 'HistoryDuplicateSource';
      fields: {
        concurrent: {
          name: 'concurrent';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Boolean'; ofType: null } };
        };
        rows: {
          name: 'rows';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        version: {
          name: 'version';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        writer: {
          name: 'writer';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'HistoryWriter'; ofType: null } };
        };
      };
    };
    HistoryFinding: {
      kind: 'OBJECT';
      name: 'HistoryFinding';
      fields: {
        evidence: {
          name: 'evidence';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        fix: {
          name: 'fix';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        rule: {
          name: 'rule';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        severity: {
          name: 'severity';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        versions: {
          name: 'versions';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
            };
          };
        };
      };
    };
    HistoryJudgement: {
      kind: 'OBJECT';
      name: 'HistoryJudgement';
      fields: {
        conflict: { name: 'conflict'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        level: {
          name: 'level';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        library: {
          name: 'library';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        message: { name: 'message'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        outcome: {
          name: 'outcome';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
      };
    };
    HistoryRange: {
      kind: 'OBJECT';
      name: 'HistoryRange';
      fields: {
        fromVersion: {
          name: 'fromVersion';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        latestVersion: {
          name: 'latestVersion';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        oldestKept: {
          name: 'oldestKept';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        since: { name: 'since'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
      };
    };
    HistoryRejudgement: {
      kind: 'OBJECT';
      name: 'HistoryRejudgement';
      fields: {
        cannotJudge: { name: 'cannotJudge'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        judgements: {
          name: 'judgements';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: {
                kind: 'NON_NULL';
                name: never;
                ofType: { kind: 'OBJECT'; name: 'HistoryJudgement'; ofType: null };
              };
            };
          };
        };
        version: {
          name: 'version';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
      };
    };
    HistorySummary: {
      kind: 'OBJECT';
      name: 'HistorySummary';
      fields: {
        busiestHour: { name: 'busiestHour'; type: { kind: 'OBJECT'; name: 'HistoryBusiestHour'; ofType: null } };
        commits: {
          name: 'commits';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        commitsPerHour: { name: 'commitsPerHour'; type: { kind: 'SCALAR'; name: 'Float'; ofType: null } };
        concurrentCommits: {
          name: 'concurrentCommits';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        duplicateKeys: { name: 'duplicateKeys'; type: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        inferredConcurrentCommits: {
          name: 'inferredConcurrentCommits';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        longestConcurrentChain: {
          name: 'longestConcurrentChain';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        unknownConcurrency: {
          name: 'unknownConcurrency';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        writers: {
          name: 'writers';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
      };
    };
    HistoryWriter: {
      kind: 'OBJECT';
      name: 'HistoryWriter';
      fields: {
        appId: { name: 'appId'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        engineInfo: { name: 'engineInfo'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        library: { name: 'library'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        userMetadata: { name: 'userMetadata'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        version: { name: 'version'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
      };
    };
    ID: unknown;
    Int: unknown;
    IsolationAdvice: {
      kind: 'OBJECT';
      name: 'IsolationAdvice';
      fields: {
        spellings: {
          name: 'spellings';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: {
                kind: 'NON_NULL';
                name: never;
                ofType: { kind: 'OBJECT'; name: 'IsolationSpelling'; ofType: null };
              };
            };
          };
        };
        unset: {
          name: 'unset';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'UnsetIsolation'; ofType: null } };
        };
      };
    };
    IsolationCell: {
      kind: 'OBJECT';
      name: 'IsolationCell';
      fields: {
        blindAppend: {
          name: 'blindAppend';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Boolean'; ofType: null } };
        };
        runs: {
          name: 'runs';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        updateCommitted: {
          name: 'updateCommitted';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        value: { name: 'value'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
      };
    };
    IsolationSpelling: {
      kind: 'OBJECT';
      name: 'IsolationSpelling';
      fields: {
        advice: {
          name: 'advice';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        candidate: {
          name: 'candidate';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        level: {
          name: 'level';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        readDifferentlyBy: {
          name: 'readDifferentlyBy';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
            };
          };
        };
        readings: {
          name: 'readings';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: {
                kind: 'NON_NULL';
                name: never;
                ofType: { kind: 'OBJECT'; name: 'EngineInterpretation'; ofType: null };
              };
            };
          };
        };
        value: { name: 'value'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
      };
    };
    JobAudit: {
      kind: 'OBJECT';
      name: 'JobAudit';
      fields: {
        auditedAt: {
          name: 'auditedAt';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        failed: {
          name: 'failed';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Boolean'; ofType: null } };
        };
        findings: {
          name: 'findings';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'JobFinding'; ofType: null } };
            };
          };
        };
        id: {
          name: 'id';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'ID'; ofType: null } };
        };
        jobs: {
          name: 'jobs';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'AuditedJob'; ofType: null } };
            };
          };
        };
        pairs: {
          name: 'pairs';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: {
                kind: 'NON_NULL';
                name: never;
                ofType: { kind: 'OBJECT'; name: 'JobPairForecast'; ofType: null };
              };
            };
          };
        };
        skipped: {
          name: 'skipped';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: {
                kind: 'NON_NULL';
                name: never;
                ofType: { kind: 'OBJECT'; name: 'JobAuditSkipped'; ofType: null };
              };
            };
          };
        };
        startedBy: { name: 'startedBy'; type: { kind: 'OBJECT'; name: 'Actor'; ofType: null } };
      };
    };
    JobAuditSkipped: {
      kind: 'OBJECT';
      name: 'JobAuditSkipped';
      fields: {
        check: {
          name: 'check';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        checked: {
          name: 'checked';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        note: {
          name: 'note';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        skipped: {
          name: 'skipped';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
      };
    };
    JobFinding: {
      kind: 'OBJECT';
      name: 'JobFinding';
      fields: {
        evidence: {
          name: 'evidence';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        exhaustion: { name: 'exhaustion'; type: { kind: 'SCALAR'; name: 'Float'; ofType: null } };
        fix: {
          name: 'fix';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        fixPolicy: { name: 'fixPolicy'; type: { kind: 'OBJECT'; name: 'RetryPolicy'; ofType: null } };
        jobs: {
          name: 'jobs';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
            };
          };
        };
        rule: {
          name: 'rule';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        severity: {
          name: 'severity';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        table: {
          name: 'table';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
      };
    };
    JobPairForecast: {
      kind: 'OBJECT';
      name: 'JobPairForecast';
      fields: {
        byEngine: {
          name: 'byEngine';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: {
                kind: 'NON_NULL';
                name: never;
                ofType: { kind: 'OBJECT'; name: 'EngineForecast'; ofType: null };
              };
            };
          };
        };
        failedCheck: { name: 'failedCheck'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        first: {
          name: 'first';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        message: { name: 'message'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        second: {
          name: 'second';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        secondCommits: { name: 'secondCommits'; type: { kind: 'SCALAR'; name: 'Boolean'; ofType: null } };
        secondEngine: { name: 'secondEngine'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        skipped: { name: 'skipped'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        table: {
          name: 'table';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
      };
    };
    KeyValue: {
      kind: 'OBJECT';
      name: 'KeyValue';
      fields: {
        key: {
          name: 'key';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        value: { name: 'value'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
      };
    };
    KeyValueInput: {
      kind: 'INPUT_OBJECT';
      name: 'KeyValueInput';
      isOneOf: false;
      inputFields: [
        {
          name: 'key';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
          defaultValue: null;
        },
        {
          name: 'value';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
          defaultValue: null;
        },
      ];
    };
    LayoutFile: {
      kind: 'OBJECT';
      name: 'LayoutFile';
      fields: {
        countsBy: {
          name: 'countsBy';
          type: {
            kind: 'LIST';
            name: never;
            ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'ValueCount'; ofType: null } };
          };
        };
        matches: {
          name: 'matches';
          type: {
            kind: 'LIST';
            name: never;
            ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
          };
        };
        maxValues: {
          name: 'maxValues';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        minValues: {
          name: 'minValues';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        partitionValues: {
          name: 'partitionValues';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'KeyValue'; ofType: null } };
            };
          };
        };
        path: {
          name: 'path';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        rows: {
          name: 'rows';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        size: {
          name: 'size';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Float'; ofType: null } };
        };
        stats: { name: 'stats'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
      };
    };
    LibraryRun: { name: 'LibraryRun'; enumValues: 'EMULATED' | 'REAL' };
    LogEntry: {
      kind: 'OBJECT';
      name: 'LogEntry';
      fields: {
        operation: { name: 'operation'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        position: {
          name: 'position';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        version: { name: 'version'; type: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        writer: {
          name: 'writer';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
      };
    };
    MeasuredOrder: {
      kind: 'OBJECT';
      name: 'MeasuredOrder';
      fields: {
        firstCommitted: {
          name: 'firstCommitted';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        firstNothingToCommit: {
          name: 'firstNothingToCommit';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        messages: {
          name: 'messages';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
            };
          };
        };
        runs: {
          name: 'runs';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        secondCommitted: {
          name: 'secondCommitted';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        secondNothingToCommit: {
          name: 'secondNothingToCommit';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
      };
    };
    MeasuredOutcome: {
      kind: 'OBJECT';
      name: 'MeasuredOutcome';
      fields: {
        caseIds: {
          name: 'caseIds';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
            };
          };
        };
        firstCommitted: {
          name: 'firstCommitted';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        firstNothingToCommit: {
          name: 'firstNothingToCommit';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        inOrder: {
          name: 'inOrder';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'MeasuredOrder'; ofType: null } };
        };
        messages: {
          name: 'messages';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
            };
          };
        };
        neitherCommitted: {
          name: 'neitherCommitted';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        otherOrder: {
          name: 'otherOrder';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'MeasuredOrder'; ofType: null } };
        };
        races: {
          name: 'races';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        runs: {
          name: 'runs';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        secondCommitted: {
          name: 'secondCommitted';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        secondNothingToCommit: {
          name: 'secondNothingToCommit';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
      };
    };
    Mutation: {
      kind: 'OBJECT';
      name: 'Mutation';
      fields: {
        auditCode: {
          name: 'auditCode';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'CodeAuditResult'; ofType: null } };
        };
        auditJobs: {
          name: 'auditJobs';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'JobAudit'; ofType: null } };
        };
        auditTables: {
          name: 'auditTables';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'TableAudit'; ofType: null } };
            };
          };
        };
        cancelRace: {
          name: 'cancelRace';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'Race'; ofType: null } };
        };
        cancelSweep: {
          name: 'cancelSweep';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'Sweep'; ofType: null } };
        };
        probeStore: {
          name: 'probeStore';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'StoreProbe'; ofType: null } };
        };
        startRace: {
          name: 'startRace';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'Race'; ofType: null } };
        };
        startSweep: {
          name: 'startSweep';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'Sweep'; ofType: null } };
        };
      };
    };
    NothingToCommitCheck: {
      kind: 'OBJECT';
      name: 'NothingToCommitCheck';
      fields: {
        name: {
          name: 'name';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        summary: {
          name: 'summary';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
      };
    };
    PageInfo: {
      kind: 'OBJECT';
      name: 'PageInfo';
      fields: {
        endCursor: { name: 'endCursor'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        hasNextPage: {
          name: 'hasNextPage';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Boolean'; ofType: null } };
        };
      };
    };
    PredictConflictInput: {
      kind: 'INPUT_OBJECT';
      name: 'PredictConflictInput';
      isOneOf: false;
      inputFields: [
        {
          name: 'first';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'INPUT_OBJECT'; name: 'WriterInput'; ofType: null } };
          defaultValue: null;
        },
        {
          name: 'second';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'INPUT_OBJECT'; name: 'WriterInput'; ofType: null } };
          defaultValue: null;
        },
        {
          name: 'table';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
          defaultValue: null;
        },
      ];
    };
    ProbeCheck: {
      kind: 'OBJECT';
      name: 'ProbeCheck';
      fields: {
        detail: {
          name: 'detail';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        failures: {
          name: 'failures';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        id: {
          name: 'id';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        onDelta: {
          name: 'onDelta';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        outcome: {
          name: 'outcome';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        title: {
          name: 'title';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        tries: {
          name: 'tries';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
      };
    };
    ProbeInformationalCheck: {
      kind: 'OBJECT';
      name: 'ProbeInformationalCheck';
      fields: {
        detail: {
          name: 'detail';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        id: {
          name: 'id';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        outcome: {
          name: 'outcome';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        title: {
          name: 'title';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
      };
    };
    ProbeLatency: {
      kind: 'OBJECT';
      name: 'ProbeLatency';
      fields: {
        call: {
          name: 'call';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        count: {
          name: 'count';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        maxMs: {
          name: 'maxMs';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Float'; ofType: null } };
        };
        p50Ms: {
          name: 'p50Ms';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Float'; ofType: null } };
        };
        p99Ms: {
          name: 'p99Ms';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Float'; ofType: null } };
        };
      };
    };
    Query: {
      kind: 'OBJECT';
      name: 'Query';
      fields: {
        audits: {
          name: 'audits';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'TableAudit'; ofType: null } };
            };
          };
        };
        cases: {
          name: 'cases';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'RaceCase'; ofType: null } };
            };
          };
        };
        codeAudit: { name: 'codeAudit'; type: { kind: 'OBJECT'; name: 'CodeAuditResult'; ofType: null } };
        codeAudits: {
          name: 'codeAudits';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: {
                kind: 'NON_NULL';
                name: never;
                ofType: { kind: 'OBJECT'; name: 'CodeAuditResult'; ofType: null };
              };
            };
          };
        };
        engineInfo: {
          name: 'engineInfo';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        isolationAdvice: {
          name: 'isolationAdvice';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'IsolationAdvice'; ofType: null } };
        };
        isolationLevelInterpretation: {
          name: 'isolationLevelInterpretation';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: {
                kind: 'NON_NULL';
                name: never;
                ofType: { kind: 'OBJECT'; name: 'EngineInterpretation'; ofType: null };
              };
            };
          };
        };
        isolationMatrix: {
          name: 'isolationMatrix';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: {
                kind: 'NON_NULL';
                name: never;
                ofType: { kind: 'OBJECT'; name: 'IsolationCell'; ofType: null };
              };
            };
          };
        };
        jobAudit: { name: 'jobAudit'; type: { kind: 'OBJECT'; name: 'JobAudit'; ofType: null } };
        jobAudits: {
          name: 'jobAudits';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'JobAudit'; ofType: null } };
            };
          };
        };
        measuredOutcome: {
          name: 'measuredOutcome';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'MeasuredOutcome'; ofType: null } };
        };
        predictConflict: {
          name: 'predictConflict';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'ConflictPrediction'; ofType: null } };
        };
        race: { name: 'race'; type: { kind: 'OBJECT'; name: 'Race'; ofType: null } };
        races: {
          name: 'races';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'RaceConnection'; ofType: null } };
        };
        realLibraries: {
          name: 'realLibraries';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'RealLibrary'; ofType: null } };
            };
          };
        };
        storeBuckets: {
          name: 'storeBuckets';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
            };
          };
        };
        storeProbe: { name: 'storeProbe'; type: { kind: 'OBJECT'; name: 'StoreProbe'; ofType: null } };
        storeProbes: {
          name: 'storeProbes';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'StoreProbe'; ofType: null } };
            };
          };
        };
        sweep: { name: 'sweep'; type: { kind: 'OBJECT'; name: 'Sweep'; ofType: null } };
        sweeps: {
          name: 'sweeps';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'Sweep'; ofType: null } };
            };
          };
        };
        tableHistory: {
          name: 'tableHistory';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'TableHistory'; ofType: null } };
        };
        tableLayout: {
          name: 'tableLayout';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'TableLayout'; ofType: null } };
        };
        viewer: { name: 'viewer'; type: { kind: 'OBJECT'; name: 'Actor'; ofType: null } };
      };
    };
    Race: {
      kind: 'OBJECT';
      name: 'Race';
      fields: {
        cancelledBy: { name: 'cancelledBy'; type: { kind: 'OBJECT'; name: 'Actor'; ofType: null } };
        caseId: { name: 'caseId'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        createdAt: {
          name: 'createdAt';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        finishedAt: { name: 'finishedAt'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        id: {
          name: 'id';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'ID'; ofType: null } };
        };
        realLibrary: { name: 'realLibrary'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        reason: { name: 'reason'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        runs: {
          name: 'runs';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'Run'; ofType: null } };
            };
          };
        };
        runsRequested: {
          name: 'runsRequested';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        scale: {
          name: 'scale';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Float'; ofType: null } };
        };
        spec: {
          name: 'spec';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        startedAt: { name: 'startedAt'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        startedBy: { name: 'startedBy'; type: { kind: 'OBJECT'; name: 'Actor'; ofType: null } };
        status: {
          name: 'status';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'ENUM'; name: 'RaceStatus'; ofType: null } };
        };
        tableLocation: { name: 'tableLocation'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        tableProperties: {
          name: 'tableProperties';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'KeyValue'; ofType: null } };
            };
          };
        };
        tableRoot: { name: 'tableRoot'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        title: {
          name: 'title';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        verdictStatus: { name: 'verdictStatus'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        verdictSummary: { name: 'verdictSummary'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        warnings: {
          name: 'warnings';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
            };
          };
        };
        worker: { name: 'worker'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
      };
    };
    RaceCase: {
      kind: 'OBJECT';
      name: 'RaceCase';
      fields: {
        description: {
          name: 'description';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        engine: {
          name: 'engine';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        group: {
          name: 'group';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        id: {
          name: 'id';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'ID'; ofType: null } };
        };
        needsS3TableRoot: {
          name: 'needsS3TableRoot';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Boolean'; ofType: null } };
        };
        store: { name: 'store'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        takesTableProperties: {
          name: 'takesTableProperties';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Boolean'; ofType: null } };
        };
        title: {
          name: 'title';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        writers: {
          name: 'writers';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
            };
          };
        };
      };
    };
    RaceConnection: {
      kind: 'OBJECT';
      name: 'RaceConnection';
      fields: {
        edges: {
          name: 'edges';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'RaceEdge'; ofType: null } };
            };
          };
        };
        pageInfo: {
          name: 'pageInfo';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'PageInfo'; ofType: null } };
        };
      };
    };
    RaceEdge: {
      kind: 'OBJECT';
      name: 'RaceEdge';
      fields: {
        cursor: {
          name: 'cursor';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        node: {
          name: 'node';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'Race'; ofType: null } };
        };
      };
    };
    RaceEvent: {
      kind: 'OBJECT';
      name: 'RaceEvent';
      fields: {
        at: {
          name: 'at';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        message: {
          name: 'message';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        raceId: {
          name: 'raceId';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'ID'; ofType: null } };
        };
        runIndex: { name: 'runIndex'; type: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        sequence: {
          name: 'sequence';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        status: {
          name: 'status';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'ENUM'; name: 'RaceStatus'; ofType: null } };
        };
      };
    };
    RaceStatus: { name: 'RaceStatus'; enumValues: 'CANCELLED' | 'DONE' | 'FAILED' | 'QUEUED' | 'RUNNING' };
    RealLibrary: {
      kind: 'OBJECT';
      name: 'RealLibrary';
      fields: {
        installed: {
          name: 'installed';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Boolean'; ofType: null } };
        };
        name: {
          name: 'name';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        package: {
          name: 'package';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        reason: { name: 'reason'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        tableFormat: {
          name: 'tableFormat';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        version: {
          name: 'version';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
      };
    };
    RetryPolicy: {
      kind: 'OBJECT';
      name: 'RetryPolicy';
      fields: {
        appTries: {
          name: 'appTries';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        backoff: { name: 'backoff'; type: { kind: 'OBJECT'; name: 'SweepBackoff'; ofType: null } };
        maxCommitRetries: {
          name: 'maxCommitRetries';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        name: {
          name: 'name';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
      };
    };
    RetryPolicyInput: {
      kind: 'INPUT_OBJECT';
      name: 'RetryPolicyInput';
      isOneOf: false;
      inputFields: [
        { name: 'appTries'; type: { kind: 'SCALAR'; name: 'Int'; ofType: null }; defaultValue: null },
        {
          name: 'backoff';
          type: { kind: 'INPUT_OBJECT'; name: 'SweepBackoffInput'; ofType: null };
          defaultValue: null;
        },
        { name: 'maxCommitRetries'; type: { kind: 'SCALAR'; name: 'Int'; ofType: null }; defaultValue: null },
        {
          name: 'name';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
          defaultValue: null;
        },
      ];
    };
    Run: {
      kind: 'OBJECT';
      name: 'Run';
      fields: {
        commitLog: {
          name: 'commitLog';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'LogEntry'; ofType: null } };
            };
          };
        };
        commitOrder: {
          name: 'commitOrder';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
            };
          };
        };
        durationMs: { name: 'durationMs'; type: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        index: {
          name: 'index';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        reason: { name: 'reason'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        status: {
          name: 'status';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'ENUM'; name: 'RaceStatus'; ofType: null } };
        };
        table: { name: 'table'; type: { kind: 'OBJECT'; name: 'TableCheck'; ofType: null } };
        verdict: { name: 'verdict'; type: { kind: 'OBJECT'; name: 'RunVerdict'; ofType: null } };
        writers: {
          name: 'writers';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: {
                kind: 'NON_NULL';
                name: never;
                ofType: { kind: 'OBJECT'; name: 'WriterOutcome'; ofType: null };
              };
            };
          };
        };
      };
    };
    RunVerdict: {
      kind: 'OBJECT';
      name: 'RunVerdict';
      fields: {
        examples: {
          name: 'examples';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: {
                kind: 'NON_NULL';
                name: never;
                ofType: { kind: 'OBJECT'; name: 'VerdictExample'; ofType: null };
              };
            };
          };
        };
        failedWriters: {
          name: 'failedWriters';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: {
                kind: 'NON_NULL';
                name: never;
                ofType: { kind: 'OBJECT'; name: 'FailedWriterCheck'; ofType: null };
              };
            };
          };
        };
        nothingToCommit: {
          name: 'nothingToCommit';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: {
                kind: 'NON_NULL';
                name: never;
                ofType: { kind: 'OBJECT'; name: 'NothingToCommitCheck'; ofType: null };
              };
            };
          };
        };
        oracleMs: {
          name: 'oracleMs';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Float'; ofType: null } };
        };
        order: {
          name: 'order';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
            };
          };
        };
        rowsDuplicated: { name: 'rowsDuplicated'; type: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        rowsExtra: { name: 'rowsExtra'; type: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        rowsMissing: { name: 'rowsMissing'; type: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        status: {
          name: 'status';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        summary: {
          name: 'summary';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        writers: {
          name: 'writers';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: {
                kind: 'NON_NULL';
                name: never;
                ofType: { kind: 'OBJECT'; name: 'VerdictWriter'; ofType: null };
              };
            };
          };
        };
      };
    };
    StartRaceInput: {
      kind: 'INPUT_OBJECT';
      name: 'StartRaceInput';
      isOneOf: false;
      inputFields: [
        { name: 'acrossWorkers'; type: { kind: 'SCALAR'; name: 'Boolean'; ofType: null }; defaultValue: null },
        { name: 'caseId'; type: { kind: 'SCALAR'; name: 'String'; ofType: null }; defaultValue: null },
        { name: 'library'; type: { kind: 'SCALAR'; name: 'String'; ofType: null }; defaultValue: null },
        { name: 'real'; type: { kind: 'SCALAR'; name: 'Boolean'; ofType: null }; defaultValue: 'false' },
        { name: 'runs'; type: { kind: 'SCALAR'; name: 'Int'; ofType: null }; defaultValue: '5' },
        { name: 'scale'; type: { kind: 'SCALAR'; name: 'Float'; ofType: null }; defaultValue: '1' },
        { name: 'table'; type: { kind: 'SCALAR'; name: 'String'; ofType: null }; defaultValue: null },
        { name: 'tableLocation'; type: { kind: 'SCALAR'; name: 'String'; ofType: null }; defaultValue: null },
        {
          name: 'tableProperties';
          type: {
            kind: 'LIST';
            name: never;
            ofType: {
              kind: 'NON_NULL';
              name: never;
              ofType: { kind: 'INPUT_OBJECT'; name: 'KeyValueInput'; ofType: null };
            };
          };
          defaultValue: null;
        },
        { name: 'tableRoot'; type: { kind: 'SCALAR'; name: 'String'; ofType: null }; defaultValue: null },
        {
          name: 'writers';
          type: {
            kind: 'LIST';
            name: never;
            ofType: {
              kind: 'NON_NULL';
              name: never;
              ofType: { kind: 'INPUT_OBJECT'; name: 'WriterInput'; ofType: null };
            };
          };
          defaultValue: null;
        },
      ];
    };
    StartSweepInput: {
      kind: 'INPUT_OBJECT';
      name: 'StartSweepInput';
      isOneOf: false;
      inputFields: [
        { name: 'appendRatePerSec'; type: { kind: 'SCALAR'; name: 'Float'; ofType: null }; defaultValue: null },
        { name: 'catalog'; type: { kind: 'SCALAR'; name: 'String'; ofType: null }; defaultValue: null },
        { name: 'commitsPerWriter'; type: { kind: 'SCALAR'; name: 'Int'; ofType: null }; defaultValue: null },
        { name: 'operation'; type: { kind: 'SCALAR'; name: 'String'; ofType: null }; defaultValue: null },
        { name: 'policy'; type: { kind: 'INPUT_OBJECT'; name: 'RetryPolicyInput'; ofType: null }; defaultValue: null },
        { name: 'scenario'; type: { kind: 'SCALAR'; name: 'String'; ofType: null }; defaultValue: null },
        { name: 'seed'; type: { kind: 'SCALAR'; name: 'Float'; ofType: null }; defaultValue: null },
        { name: 'tableFormat'; type: { kind: 'SCALAR'; name: 'String'; ofType: null }; defaultValue: null },
        { name: 'tableRoot'; type: { kind: 'SCALAR'; name: 'String'; ofType: null }; defaultValue: null },
        {
          name: 'writers';
          type: {
            kind: 'LIST';
            name: never;
            ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
          };
          defaultValue: null;
        },
      ];
    };
    StoreProbe: {
      kind: 'OBJECT';
      name: 'StoreProbe';
      fields: {
        checks: {
          name: 'checks';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'ProbeCheck'; ofType: null } };
            };
          };
        };
        durationMs: {
          name: 'durationMs';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        id: {
          name: 'id';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'ID'; ofType: null } };
        };
        informational: {
          name: 'informational';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: {
                kind: 'NON_NULL';
                name: never;
                ofType: { kind: 'OBJECT'; name: 'ProbeInformationalCheck'; ofType: null };
              };
            };
          };
        };
        latency: {
          name: 'latency';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'ProbeLatency'; ofType: null } };
            };
          };
        };
        leftover: {
          name: 'leftover';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        location: {
          name: 'location';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        probedAt: {
          name: 'probedAt';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        rounds: {
          name: 'rounds';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        startedBy: { name: 'startedBy'; type: { kind: 'OBJECT'; name: 'Actor'; ofType: null } };
        summary: {
          name: 'summary';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        verdict: {
          name: 'verdict';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        writers: {
          name: 'writers';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
      };
    };
    String: unknown;
    Subscription: {
      kind: 'OBJECT';
      name: 'Subscription';
      fields: {
        raceProgress: {
          name: 'raceProgress';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'RaceEvent'; ofType: null } };
        };
        sweepProgress: {
          name: 'sweepProgress';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'Sweep'; ofType: null } };
        };
      };
    };
    Sweep: {
      kind: 'OBJECT';
      name: 'Sweep';
      fields: {
        cancelledBy: { name: 'cancelledBy'; type: { kind: 'OBJECT'; name: 'Actor'; ofType: null } };
        createdAt: {
          name: 'createdAt';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        done: {
          name: 'done';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        finishedAt: { name: 'finishedAt'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        id: {
          name: 'id';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'ID'; ofType: null } };
        };
        input: {
          name: 'input';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'SweepInput'; ofType: null } };
        };
        onS3: {
          name: 'onS3';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Boolean'; ofType: null } };
        };
        reason: { name: 'reason'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        results: { name: 'results'; type: { kind: 'OBJECT'; name: 'SweepResults'; ofType: null } };
        startedAt: { name: 'startedAt'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        startedBy: { name: 'startedBy'; type: { kind: 'OBJECT'; name: 'Actor'; ofType: null } };
        status: {
          name: 'status';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'ENUM'; name: 'RaceStatus'; ofType: null } };
        };
        total: {
          name: 'total';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        worker: { name: 'worker'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        writers: { name: 'writers'; type: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
      };
    };
    SweepAttempts: {
      kind: 'OBJECT';
      name: 'SweepAttempts';
      fields: {
        histogram: {
          name: 'histogram';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: {
                kind: 'NON_NULL';
                name: never;
                ofType: { kind: 'OBJECT'; name: 'SweepAttemptsBar'; ofType: null };
              };
            };
          };
        };
        successPerAttempt: {
          name: 'successPerAttempt';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Float'; ofType: null } };
        };
        total: {
          name: 'total';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
      };
    };
    SweepAttemptsBar: {
      kind: 'OBJECT';
      name: 'SweepAttemptsBar';
      fields: {
        attempts: {
          name: 'attempts';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        commits: {
          name: 'commits';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
      };
    };
    SweepBackoff: {
      kind: 'OBJECT';
      name: 'SweepBackoff';
      fields: {
        baseMs: {
          name: 'baseMs';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        capMs: {
          name: 'capMs';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        jitter: {
          name: 'jitter';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
      };
    };
    SweepBackoffInput: {
      kind: 'INPUT_OBJECT';
      name: 'SweepBackoffInput';
      isOneOf: false;
      inputFields: [
        {
          name: 'baseMs';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
          defaultValue: null;
        },
        {
          name: 'capMs';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
          defaultValue: null;
        },
        {
          name: 'jitter';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
          defaultValue: null;
        },
      ];
    };
    SweepChecks: {
      kind: 'OBJECT';
      name: 'SweepChecks';
      fields: {
        duplicated: {
          name: 'duplicated';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        exactlyOnce: {
          name: 'exactlyOnce';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Boolean'; ofType: null } };
        };
        failedPresent: { name: 'failedPresent'; type: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        lost: {
          name: 'lost';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        verdict: {
          name: 'verdict';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        verdictNote: {
          name: 'verdictNote';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        versionsContiguous: {
          name: 'versionsContiguous';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Boolean'; ofType: null } };
        };
        wrongVersion: { name: 'wrongVersion'; type: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
      };
    };
    SweepCommits: {
      kind: 'OBJECT';
      name: 'SweepCommits';
      fields: {
        acknowledged: {
          name: 'acknowledged';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        failed: {
          name: 'failed';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        intended: {
          name: 'intended';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
      };
    };
    SweepCompactor: {
      kind: 'OBJECT';
      name: 'SweepCompactor';
      fields: {
        acknowledged: {
          name: 'acknowledged';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        attempts: {
          name: 'attempts';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        failures: {
          name: 'failures';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'SweepFailure'; ofType: null } };
            };
          };
        };
        successPerAttempt: {
          name: 'successPerAttempt';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Float'; ofType: null } };
        };
      };
    };
    SweepFailure: {
      kind: 'OBJECT';
      name: 'SweepFailure';
      fields: {
        count: {
          name: 'count';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        message: {
          name: 'message';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
      };
    };
    SweepForecast: {
      kind: 'OBJECT';
      name: 'SweepForecast';
      fields: {
        atPoints: {
          name: 'atPoints';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: {
                kind: 'NON_NULL';
                name: never;
                ofType: { kind: 'OBJECT'; name: 'SweepForecastPoint'; ofType: null };
              };
            };
          };
        };
        curve: {
          name: 'curve';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: {
                kind: 'NON_NULL';
                name: never;
                ofType: { kind: 'OBJECT'; name: 'SweepForecastPoint'; ofType: null };
              };
            };
          };
        };
        error: {
          name: 'error';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'SweepForecastError'; ofType: null } };
        };
        model: {
          name: 'model';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
      };
    };
    SweepForecastError: {
      kind: 'OBJECT';
      name: 'SweepForecastError';
      fields: {
        commitsPerSecMeanRel: {
          name: 'commitsPerSecMeanRel';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Float'; ofType: null } };
        };
        successPerAttemptMeanAbs: {
          name: 'successPerAttemptMeanAbs';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Float'; ofType: null } };
        };
      };
    };
    SweepForecastPoint: {
      kind: 'OBJECT';
      name: 'SweepForecastPoint';
      fields: {
        commitsPerSec: {
          name: 'commitsPerSec';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Float'; ofType: null } };
        };
        exhaustion: {
          name: 'exhaustion';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Float'; ofType: null } };
        };
        successPerAttempt: {
          name: 'successPerAttempt';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Float'; ofType: null } };
        };
        writers: {
          name: 'writers';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
      };
    };
    SweepInput: {
      kind: 'OBJECT';
      name: 'SweepInput';
      fields: {
        appendRatePerSec: { name: 'appendRatePerSec'; type: { kind: 'SCALAR'; name: 'Float'; ofType: null } };
        catalog: { name: 'catalog'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        commitsPerWriter: {
          name: 'commitsPerWriter';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        operation: {
          name: 'operation';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        policy: {
          name: 'policy';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'RetryPolicy'; ofType: null } };
        };
        scenario: { name: 'scenario'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        seed: {
          name: 'seed';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Float'; ofType: null } };
        };
        tableFormat: {
          name: 'tableFormat';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        writers: {
          name: 'writers';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
            };
          };
        };
      };
    };
    SweepLatency: {
      kind: 'OBJECT';
      name: 'SweepLatency';
      fields: {
        mean: {
          name: 'mean';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Float'; ofType: null } };
        };
        p50: {
          name: 'p50';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Float'; ofType: null } };
        };
        p99: {
          name: 'p99';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Float'; ofType: null } };
        };
      };
    };
    SweepMachine: {
      kind: 'OBJECT';
      name: 'SweepMachine';
      fields: {
        cores: {
          name: 'cores';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        node: {
          name: 'node';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        platform: {
          name: 'platform';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
      };
    };
    SweepMeasured: {
      kind: 'OBJECT';
      name: 'SweepMeasured';
      fields: {
        appPauseMs: {
          name: 'appPauseMs';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'SweepQuantiles'; ofType: null } };
        };
        attemptMs: {
          name: 'attemptMs';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'SweepQuantiles'; ofType: null } };
        };
        prepareMs: {
          name: 'prepareMs';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'SweepQuantiles'; ofType: null } };
        };
      };
    };
    SweepPoint: {
      kind: 'OBJECT';
      name: 'SweepPoint';
      fields: {
        attempts: {
          name: 'attempts';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'SweepAttempts'; ofType: null } };
        };
        checks: {
          name: 'checks';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'SweepChecks'; ofType: null } };
        };
        commits: {
          name: 'commits';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'SweepCommits'; ofType: null } };
        };
        commitsPerSec: {
          name: 'commitsPerSec';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Float'; ofType: null } };
        };
        compactor: { name: 'compactor'; type: { kind: 'OBJECT'; name: 'SweepCompactor'; ofType: null } };
        durationMs: {
          name: 'durationMs';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Float'; ofType: null } };
        };
        failures: {
          name: 'failures';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'SweepFailure'; ofType: null } };
            };
          };
        };
        latencyMs: {
          name: 'latencyMs';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'SweepLatency'; ofType: null } };
        };
        measured: {
          name: 'measured';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'SweepMeasured'; ofType: null } };
        };
        wasted: {
          name: 'wasted';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'SweepWasted'; ofType: null } };
        };
        writers: {
          name: 'writers';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
      };
    };
    SweepQuantiles: {
      kind: 'OBJECT';
      name: 'SweepQuantiles';
      fields: {
        p10: {
          name: 'p10';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Float'; ofType: null } };
        };
        p50: {
          name: 'p50';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Float'; ofType: null } };
        };
        p90: {
          name: 'p90';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Float'; ofType: null } };
        };
        p99: {
          name: 'p99';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Float'; ofType: null } };
        };
      };
    };
    SweepResults: {
      kind: 'OBJECT';
      name: 'SweepResults';
      fields: {
        finishedAt: {
          name: 'finishedAt';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        forecast: { name: 'forecast'; type: { kind: 'OBJECT'; name: 'SweepForecast'; ofType: null } };
        machine: {
          name: 'machine';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'SweepMachine'; ofType: null } };
        };
        points: {
          name: 'points';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'SweepPoint'; ofType: null } };
            };
          };
        };
        startedAt: {
          name: 'startedAt';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        store: {
          name: 'store';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
      };
    };
    SweepWasted: {
      kind: 'OBJECT';
      name: 'SweepWasted';
      fields: {
        bytes: {
          name: 'bytes';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Float'; ofType: null } };
        };
        files: {
          name: 'files';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        orphanFiles: {
          name: 'orphanFiles';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
      };
    };
    TableAudit: {
      kind: 'OBJECT';
      name: 'TableAudit';
      fields: {
        auditedAt: {
          name: 'auditedAt';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        flagged: {
          name: 'flagged';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Boolean'; ofType: null } };
        };
        flaggedBy: {
          name: 'flaggedBy';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
            };
          };
        };
        id: {
          name: 'id';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'ID'; ofType: null } };
        };
        interpretations: {
          name: 'interpretations';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: {
                kind: 'NON_NULL';
                name: never;
                ofType: { kind: 'OBJECT'; name: 'EngineInterpretation'; ofType: null };
              };
            };
          };
        };
        isolationLevel: { name: 'isolationLevel'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        location: {
          name: 'location';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        startedBy: { name: 'startedBy'; type: { kind: 'OBJECT'; name: 'Actor'; ofType: null } };
        tableVersion: {
          name: 'tableVersion';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
      };
    };
    TableCheck: {
      kind: 'OBJECT';
      name: 'TableCheck';
      fields: {
        dataFilesInLog: { name: 'dataFilesInLog'; type: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        dataFilesOnDisk: { name: 'dataFilesOnDisk'; type: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        distinctTripIds: { name: 'distinctTripIds'; type: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        rows: {
          name: 'rows';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        stagingFilesOnDisk: { name: 'stagingFilesOnDisk'; type: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        tempLogFilesOnDisk: { name: 'tempLogFilesOnDisk'; type: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        tipDeltaByVendor: {
          name: 'tipDeltaByVendor';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'KeyValue'; ofType: null } };
            };
          };
        };
        tripsOnDay: {
          name: 'tripsOnDay';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'KeyValue'; ofType: null } };
            };
          };
        };
        version: { name: 'version'; type: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
      };
    };
    TableHistory: {
      kind: 'OBJECT';
      name: 'TableHistory';
      fields: {
        commits: {
          name: 'commits';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: {
                kind: 'NON_NULL';
                name: never;
                ofType: { kind: 'OBJECT'; name: 'HistoryCommit'; ofType: null };
              };
            };
          };
        };
        duplicates: { name: 'duplicates'; type: { kind: 'OBJECT'; name: 'HistoryDuplicateKeys'; ofType: null } };
        failed: {
          name: 'failed';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Boolean'; ofType: null } };
        };
        findings: {
          name: 'findings';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: {
                kind: 'NON_NULL';
                name: never;
                ofType: { kind: 'OBJECT'; name: 'HistoryFinding'; ofType: null };
              };
            };
          };
        };
        location: {
          name: 'location';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        range: {
          name: 'range';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'HistoryRange'; ofType: null } };
        };
        rejudgements: {
          name: 'rejudgements';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: {
                kind: 'NON_NULL';
                name: never;
                ofType: { kind: 'OBJECT'; name: 'HistoryRejudgement'; ofType: null };
              };
            };
          };
        };
        summary: {
          name: 'summary';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'HistorySummary'; ofType: null } };
        };
      };
    };
    TableLayout: {
      kind: 'OBJECT';
      name: 'TableLayout';
      fields: {
        appends: {
          name: 'appends';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: {
                kind: 'NON_NULL';
                name: never;
                ofType: { kind: 'OBJECT'; name: 'AppendPreview'; ofType: null };
              };
            };
          };
        };
        configuration: {
          name: 'configuration';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'KeyValue'; ofType: null } };
            };
          };
        };
        files: {
          name: 'files';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'LayoutFile'; ofType: null } };
            };
          };
        };
        location: {
          name: 'location';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        partitionColumns: {
          name: 'partitionColumns';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
            };
          };
        };
        protocol: {
          name: 'protocol';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        schema: {
          name: 'schema';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        version: {
          name: 'version';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        warnings: {
          name: 'warnings';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
            };
          };
        };
      };
    };
    UnsetIsolation: {
      kind: 'OBJECT';
      name: 'UnsetIsolation';
      fields: {
        defaults: {
          name: 'defaults';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: {
                kind: 'NON_NULL';
                name: never;
                ofType: { kind: 'OBJECT'; name: 'EngineInterpretation'; ofType: null };
              };
            };
          };
        };
        fix: { name: 'fix'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        flagged: {
          name: 'flagged';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Boolean'; ofType: null } };
        };
        summary: {
          name: 'summary';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
      };
    };
    ValueCount: {
      kind: 'OBJECT';
      name: 'ValueCount';
      fields: {
        rows: {
          name: 'rows';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        value: {
          name: 'value';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
      };
    };
    VerdictExample: {
      kind: 'OBJECT';
      name: 'VerdictExample';
      fields: {
        kind: {
          name: 'kind';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        row: {
          name: 'row';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'KeyValue'; ofType: null } };
            };
          };
        };
      };
    };
    VerdictWriter: {
      kind: 'OBJECT';
      name: 'VerdictWriter';
      fields: {
        appliedTwice: {
          name: 'appliedTwice';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Boolean'; ofType: null } };
        };
        name: {
          name: 'name';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        notApplied: {
          name: 'notApplied';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Boolean'; ofType: null } };
        };
      };
    };
    WriterInput: {
      kind: 'INPUT_OBJECT';
      name: 'WriterInput';
      isOneOf: false;
      inputFields: [
        { name: 'blindAppend'; type: { kind: 'SCALAR'; name: 'Boolean'; ofType: null }; defaultValue: null },
        {
          name: 'command';
          type: {
            kind: 'LIST';
            name: never;
            ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
          };
          defaultValue: null;
        },
        { name: 'cwd'; type: { kind: 'SCALAR'; name: 'String'; ofType: null }; defaultValue: null },
        { name: 'day'; type: { kind: 'SCALAR'; name: 'String'; ofType: null }; defaultValue: null },
        { name: 'maxCommitRetries'; type: { kind: 'SCALAR'; name: 'Int'; ofType: null }; defaultValue: null },
        {
          name: 'name';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
          defaultValue: null;
        },
        { name: 'operation'; type: { kind: 'SCALAR'; name: 'String'; ofType: null }; defaultValue: null },
        { name: 'predicate'; type: { kind: 'SCALAR'; name: 'String'; ofType: null }; defaultValue: null },
        { name: 'retryLoopAttempts'; type: { kind: 'SCALAR'; name: 'Int'; ofType: null }; defaultValue: null },
        { name: 'sample'; type: { kind: 'SCALAR'; name: 'Int'; ofType: null }; defaultValue: null },
        {
          name: 'set';
          type: {
            kind: 'LIST';
            name: never;
            ofType: {
              kind: 'NON_NULL';
              name: never;
              ofType: { kind: 'INPUT_OBJECT'; name: 'KeyValueInput'; ofType: null };
            };
          };
          defaultValue: null;
        },
        { name: 'sourceLocation'; type: { kind: 'SCALAR'; name: 'String'; ofType: null }; defaultValue: null },
        { name: 'startAfter'; type: { kind: 'SCALAR'; name: 'String'; ofType: null }; defaultValue: null },
      ];
    };
    WriterOutcome: {
      kind: 'OBJECT';
      name: 'WriterOutcome';
      fields: {
        attemptErrors: {
          name: 'attemptErrors';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'OBJECT'; name: 'AttemptError'; ofType: null } };
            };
          };
        };
        attempts: {
          name: 'attempts';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        };
        bytesWritten: { name: 'bytesWritten'; type: { kind: 'SCALAR'; name: 'Float'; ofType: null } };
        commitRetries: { name: 'commitRetries'; type: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        committed: {
          name: 'committed';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Boolean'; ofType: null } };
        };
        errorClass: { name: 'errorClass'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        errorMessage: { name: 'errorMessage'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        filesWritten: { name: 'filesWritten'; type: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        host: { name: 'host'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        library: { name: 'library'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        libraryVersion: { name: 'libraryVersion'; type: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        name: {
          name: 'name';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        operation: {
          name: 'operation';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
        };
        outcome: {
          name: 'outcome';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'ENUM'; name: 'WriterOutcomeKind'; ofType: null } };
        };
        peakRssMb: { name: 'peakRssMb'; type: { kind: 'SCALAR'; name: 'Float'; ofType: null } };
        readVersion: { name: 'readVersion'; type: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        run: { name: 'run'; type: { kind: 'ENUM'; name: 'LibraryRun'; ofType: null } };
        timings: { name: 'timings'; type: { kind: 'OBJECT'; name: 'WriterTimings'; ofType: null } };
        version: { name: 'version'; type: { kind: 'SCALAR'; name: 'Int'; ofType: null } };
        warnings: {
          name: 'warnings';
          type: {
            kind: 'NON_NULL';
            name: never;
            ofType: {
              kind: 'LIST';
              name: never;
              ofType: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'String'; ofType: null } };
            };
          };
        };
      };
    };
    WriterOutcomeKind: { name: 'WriterOutcomeKind'; enumValues: 'COMMITTED' | 'FAILED' | 'NOTHING_TO_COMMIT' };
    WriterTimings: {
      kind: 'OBJECT';
      name: 'WriterTimings';
      fields: {
        finished: {
          name: 'finished';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Float'; ofType: null } };
        };
        opened: {
          name: 'opened';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Float'; ofType: null } };
        };
        prepared: {
          name: 'prepared';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Float'; ofType: null } };
        };
        released: {
          name: 'released';
          type: { kind: 'NON_NULL'; name: never; ofType: { kind: 'SCALAR'; name: 'Float'; ofType: null } };
        };
      };
    };
  };
};
