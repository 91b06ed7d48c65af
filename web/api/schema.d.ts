/** Generated from the OpenAPI document by `npm run openapi -- client`: do not edit. */
export interface paths {
    "/api/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Health check read by smoke tests and canaries */
        get: operations["health"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** OpenAPI 3.1 document of every route */
        get: operations["openapi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Password sign-in through the identity provider; failures audited */
        post: operations["auth-login"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/mfa/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Multi-factor step of sign-in */
        post: operations["auth-mfa-verify"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/mfa/setup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Enrols a TOTP authenticator during sign-in (MFA_SETUP, when the pool requires MFA); failures audited */
        post: operations["auth-mfa-setup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/webauthn/authenticate/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Passkey (WebAuthn) verification; failures audited */
        post: operations["auth-webauthn-verify"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/new-password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** First sign-in of an invited user: replaces the temporary password; failures audited */
        post: operations["auth-new-password"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/forgot-password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Forgot-password flow */
        post: operations["auth-forgot-password"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/payment": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Invoice-paid events, signature-checked and idempotent */
        post: operations["payment-webhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/investigations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's organization's investigations */
        get: operations["investigations-list"];
        put?: never;
        /** Create an investigation in the caller's organization */
        post: operations["investigation-create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/investigations/{investigation_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One investigation with its questions and topics */
        get: operations["investigation-get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Change an investigation's title or description */
        patch: operations["investigation-update"];
        trace?: never;
    };
    "/api/investigations/{investigation_id}/evidence": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Evidence items with their attachments, and background documents, each openable in the file viewer */
        get: operations["investigation-evidence"];
        put?: never;
        /** Add an evidence item (its text at once, its files by presigned upload); queued for embedding */
        post: operations["evidence-create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/investigations/{investigation_id}/questions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Add a question to an investigation */
        post: operations["question-create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/investigations/{investigation_id}/topics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Add a topic to an investigation */
        post: operations["topic-create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/investigations/{investigation_id}/evidence/{evidence_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One evidence item with its attachments and how far each has come in */
        get: operations["evidence-get"];
        put?: never;
        post?: never;
        /** Delete an evidence item with its attachments, files, chunks and embeddings */
        delete: operations["evidence-delete"];
        options?: never;
        head?: never;
        /** Change an evidence item's title, text, date or linked questions (changed text is embedded again) */
        patch: operations["evidence-update"];
        trace?: never;
    };
    "/api/investigations/{investigation_id}/evidence/{evidence_id}/attachments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Add attachments to an evidence item: presigned uploads */
        post: operations["attachment-add"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/investigations/{investigation_id}/evidence/{evidence_id}/attachments/{attachment_id}/upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A new presigned upload for an attachment whose file has not arrived */
        post: operations["attachment-upload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/investigations/{investigation_id}/background-documents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Add a background document: a presigned upload, extracted when it arrives */
        post: operations["background-document-create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/investigations/{investigation_id}/background-documents/{background_document_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a background document with its file, chunks and embeddings */
        delete: operations["background-document-delete"];
        options?: never;
        head?: never;
        /** Change a background document's title, or whether the AI is given it */
        patch: operations["background-document-update"];
        trace?: never;
    };
    "/api/investigations/{investigation_id}/imports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start a bulk import of a whole matter: a presigned upload of the file, processed in the background */
        post: operations["import-create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/investigations/{investigation_id}/imports/{import_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Progress and per-line errors of a bulk import */
        get: operations["import-get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/investigations/{investigation_id}/ingestion": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** How far an investigation's evidence has come in: items ready, chunks waiting for embeddings, failures */
        get: operations["ingestion-status"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analysis/assess": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Evidence check before generation (no AI call) */
        post: operations["analysis-assess"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analysis": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An investigation's analyses, newest first, with feedback badges */
        get: operations["analysis-list"];
        put?: never;
        /** Start an analysis; generation continues in the background */
        post: operations["analysis-create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analysis/{analysis_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One analysis (the polling target) */
        get: operations["analysis-get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analysis/{analysis_id}/quality-check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Manually start the faithfulness and coverage checks */
        post: operations["analysis-quality-check"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analysis/{analysis_id}/quality-status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Progress of the quality checks */
        get: operations["analysis-quality-status"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analysis/{analysis_id}/retrieval": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Chunks the AI considered, with similarity and inclusion */
        get: operations["analysis-retrieval"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analysis/{analysis_id}/retrieval/{chunk_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One retrieved chunk in full, with its surrounding passage (opening a citation) */
        get: operations["analysis-retrieval-chunk"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analysis/{analysis_id}/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The analysis as a record, JSON or PDF (question, answer, quoted passages, claims, scores, retrieval, models, timestamps, judgments) */
        get: operations["analysis-export"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analysis/{analysis_id}/engagement": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Record engagement gate steps (detail reviewed, citation checked) */
        post: operations["analysis-engagement"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analysis/{analysis_id}/feedback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Feedback history of one analysis */
        get: operations["analysis-feedback-list"];
        put?: never;
        /** Record a judgment, regeneration, edit or view */
        post: operations["analysis-feedback-create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analysis/{analysis_id}/feedback/{feedback_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One feedback record of an analysis (the Location of a recorded action) */
        get: operations["analysis-feedback-get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analysis/feedback-metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Feedback rates, breakdown, top reasons, 8-week trend */
        get: operations["feedback-metrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/storage/view": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** File viewer proxy for attachments and background documents */
        get: operations["storage-view"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/background/extract-text": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Extract text from a background document for the AI */
        post: operations["background-extract-text"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/prompts/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Versions of a prompt template, or one version in full */
        get: operations["admin-prompt-history"];
        put?: never;
        /** Roll a prompt template back by creating a new version */
        post: operations["admin-prompt-rollback"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/prompts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create a new version of a prompt template */
        post: operations["admin-prompt-create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/prompts/{prompt_type}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Deactivate a prompt template */
        patch: operations["admin-prompt-update"];
        trace?: never;
    };
    "/api/admin/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Runtime settings (currently none) */
        get: operations["admin-settings-get"];
        /** Settings change (no key is modifiable; audited) */
        put: operations["admin-settings-put"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/queue-stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Queue depths and the throttle shedder status */
        get: operations["admin-queue-stats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/audit-health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Audit action types that are failing */
        get: operations["admin-audit-health"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Users with their AI usage counts */
        get: operations["admin-users"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/jobs/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Background job status */
        get: operations["admin-jobs-status"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/cron/embedding-sweeper": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Embed pending evidence chunks; report what is still pending */
        post: operations["embedding-sweeper"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/cron/retention": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Delete what has outlived its retention; logs RetentionCronLastRun */
        post: operations["retention-sweep"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        ApiError: {
            error: {
                code: string;
                message: string;
                details?: unknown;
            };
        };
        /** @description API Gateway's own answer, before or instead of the function: {"message": "Unauthorized"}, … */
        GatewayMessage: {
            message: string;
        };
        Analysis: {
            /** Format: uuid */
            analysis_id: string;
            /** Format: uuid */
            investigation_id: string;
            /** @enum {string} */
            analysis_type: "question" | "topic" | "summary" | "gap" | "error_check";
            question_id: string | null;
            /** @description the question a question analysis answers (null for other types) */
            question_text: string | null;
            topic_id: string | null;
            /** @description the title of the topic a topic analysis analyses (null for other types) */
            topic_title: string | null;
            regenerated_from: string | null;
            /** @enum {string} */
            generation_status: "queued" | "generating" | "complete" | "failed" | "checking" | "verified" | "quality_unavailable";
            error_message: string | null;
            ai_wait_until: string | null;
            /** @description set while the queued analysis waits for its investigation's evidence to be processed (files extracted, text embedded); it waits at most about 100 s after it was requested, then is generated with what is ready */
            waiting_for_evidence: {
                /** @description the investigation's evidence items and background documents ready for analysis */
                ready: number;
                /** @description the investigation's evidence items and background documents */
                total: number;
                /**
                 * Format: date-time
                 * @description when the analysis began to wait
                 */
                since: string;
            } | null;
            result: components["schemas"]["AnalysisAnswer"] | null;
            faithfulness_score: number | null;
            coverage_score: number | null;
            quality_confidence: ("established" | "probable" | "possible" | "insufficient") | null;
            /** @description how quality_confidence was reached, in words: the two scores and the band they give, and whether weak retrieval similarity took one step off (null before a check) */
            confidence_reason: string | null;
            /**
             * @description the scores, claims, aspects and confidence always describe the AI's text (result), never the investigator's edit
             * @constant
             */
            quality_applies_to: "ai_text";
            /** @description an investigator has edited the analysis (GET /api/analysis/{analysis_id} has the edit beside the AI's text) */
            edited: boolean;
            /** @description set when the analysis was edited and has quality scores: what a page shows so the scores are not read as the edit's */
            quality_note: string | null;
            evidence_coverage: {
                considered: number;
                total: number;
                background_documents_considered: number | null;
            } | null;
            retrieval_quality: {
                [key: string]: unknown;
            } | null;
            /** @description no retrieved chunk reached the similarity floor, so the analysis rests on the closest few, which may be only weakly related to the question (the prompt told the model so) */
            low_relevance: boolean;
            validation_status: ("valid" | "citations_removed" | "uncited_findings") | null;
            token_usage: {
                input_tokens: number;
                output_tokens: number;
            } | null;
            prompt_type: string | null;
            prompt_version: number | null;
            model_id: string | null;
            detail_reviewed_at: string | null;
            citation_checked_at: string | null;
            judgment_enabled: boolean;
            feedback_status: ("accepted" | "rejected" | "needs_revision" | "regenerated" | "edited" | "viewed") | null;
            feedback_badge: {
                key: string;
                label: string;
                color: string;
            } | null;
            /** Format: date-time */
            created_at: string;
            generated_at: string | null;
        };
        AnalysisDetail: {
            /** Format: uuid */
            analysis_id: string;
            /** Format: uuid */
            investigation_id: string;
            /** @enum {string} */
            analysis_type: "question" | "topic" | "summary" | "gap" | "error_check";
            question_id: string | null;
            /** @description the question a question analysis answers (null for other types) */
            question_text: string | null;
            topic_id: string | null;
            /** @description the title of the topic a topic analysis analyses (null for other types) */
            topic_title: string | null;
            regenerated_from: string | null;
            /** @enum {string} */
            generation_status: "queued" | "generating" | "complete" | "failed" | "checking" | "verified" | "quality_unavailable";
            error_message: string | null;
            ai_wait_until: string | null;
            /** @description set while the queued analysis waits for its investigation's evidence to be processed (files extracted, text embedded); it waits at most about 100 s after it was requested, then is generated with what is ready */
            waiting_for_evidence: {
                /** @description the investigation's evidence items and background documents ready for analysis */
                ready: number;
                /** @description the investigation's evidence items and background documents */
                total: number;
                /**
                 * Format: date-time
                 * @description when the analysis began to wait
                 */
                since: string;
            } | null;
            result: components["schemas"]["AnalysisAnswer"] | null;
            faithfulness_score: number | null;
            coverage_score: number | null;
            quality_confidence: ("established" | "probable" | "possible" | "insufficient") | null;
            /** @description how quality_confidence was reached, in words: the two scores and the band they give, and whether weak retrieval similarity took one step off (null before a check) */
            confidence_reason: string | null;
            /**
             * @description the scores, claims, aspects and confidence always describe the AI's text (result), never the investigator's edit
             * @constant
             */
            quality_applies_to: "ai_text";
            /** @description an investigator has edited the analysis (GET /api/analysis/{analysis_id} has the edit beside the AI's text) */
            edited: boolean;
            /** @description set when the analysis was edited and has quality scores: what a page shows so the scores are not read as the edit's */
            quality_note: string | null;
            evidence_coverage: {
                considered: number;
                total: number;
                background_documents_considered: number | null;
            } | null;
            retrieval_quality: {
                [key: string]: unknown;
            } | null;
            /** @description no retrieved chunk reached the similarity floor, so the analysis rests on the closest few, which may be only weakly related to the question (the prompt told the model so) */
            low_relevance: boolean;
            validation_status: ("valid" | "citations_removed" | "uncited_findings") | null;
            token_usage: {
                input_tokens: number;
                output_tokens: number;
            } | null;
            prompt_type: string | null;
            prompt_version: number | null;
            model_id: string | null;
            detail_reviewed_at: string | null;
            citation_checked_at: string | null;
            judgment_enabled: boolean;
            feedback_status: ("accepted" | "rejected" | "needs_revision" | "regenerated" | "edited" | "viewed") | null;
            feedback_badge: {
                key: string;
                label: string;
                color: string;
            } | null;
            /** Format: date-time */
            created_at: string;
            generated_at: string | null;
            /** @description the last successful faithfulness check's verdict, claim by claim (null before one, or from a check before they were kept) */
            claims: components["schemas"]["ClaimVerdict"][] | null;
            /** @description the last successful coverage check's aspects of the question or topic, each addressed or missing */
            coverage_aspects: components["schemas"]["CoverageAspect"][] | null;
            edit: {
                /** Format: uuid */
                revision_id: string;
                content: string;
                edited_by: {
                    /** Format: uuid */
                    user_id: string;
                    display_name: string | null;
                } | null;
                /** Format: date-time */
                edited_at: string;
            } | null;
        };
        ClaimVerdict: {
            /** @description the claim as the faithfulness check stated it */
            statement: string;
            supported: boolean;
            /** @description the passages the check found it supported by (chunks of the retrieval, GET …/retrieval/{chunk_id}) */
            chunk_ids: string[];
            /**
             * @description the part of the analysis the claim reviews, when it can be matched
             * @enum {string}
             */
            part: "finding" | "summary" | "unmatched";
            /** @description index in result.findings when part is 'finding' */
            finding_index: number | null;
        };
        CoverageAspect: {
            /** @description one aspect of the question or topic, in a few words */
            aspect: string;
            /** @description the analysis addresses it (false: missing) */
            addressed: boolean;
            /** @description the passages the analysis answers it from */
            chunk_ids: string[];
        };
        AnalysisExport: {
            /** @constant */
            format_version: 1;
            /** Format: date-time */
            exported_at: string;
            investigation: {
                /** Format: uuid */
                investigation_id: string;
                title: string;
            };
            /** @description the analysis as GET /api/analysis/{analysis_id} answers it: question or topic, answer, scores, confidence and its reason, claims, aspects, prompt, edit */
            analysis: components["schemas"]["AnalysisDetail"];
            /** @description the answer's findings, each with its cited passages quoted and their sources */
            findings: {
                index: number;
                statement: string;
                citations: {
                    /** Format: uuid */
                    chunk_id: string;
                    /** @description null when the passage is no longer among the retrieval (its chunk deleted) */
                    source_title: string | null;
                    page: number | null;
                    /** @description the cited passage, whole */
                    quote: string | null;
                }[];
                /** @description the faithfulness check's verdicts on this finding */
                claims: components["schemas"]["ClaimVerdict"][];
            }[];
            retrieval: {
                low_relevance: boolean;
                summary: {
                    total: number;
                    included: number;
                    excluded: number;
                };
                /** @description every passage retrieval considered, by rank, its text whole */
                chunks: components["schemas"]["RetrievalChunk"][];
            };
            /** @description the models and regions that answered (generation, quality checks), from the AI ledger */
            models: {
                /** @enum {string} */
                purpose: "analysis" | "quality" | "judge" | "embedding";
                model_id: string;
                region: string;
                calls: number;
                /** Format: date-time */
                first_at: string;
                /** Format: date-time */
                last_at: string;
            }[];
            timestamps: {
                /** Format: date-time */
                requested_at: string;
                generated_at: string | null;
                quality_checked_at: string | null;
                /** @description each investigator's engagement gates (A: detail reviewed, B: citation checked) */
                engagements: {
                    /** Format: uuid */
                    user_id: string;
                    display_name: string | null;
                    detail_reviewed_at: string | null;
                    citation_checked_at: string | null;
                }[];
            };
            /** @description the judgments, regenerations and edits, oldest first */
            feedback: components["schemas"]["FeedbackRecord"][];
        };
        AnalysisAnswer: {
            summary: string;
            findings: {
                statement: string;
                citations: string[];
            }[];
            /** @enum {string} */
            confidence?: "established" | "probable" | "possible" | "insufficient";
            /** @default [] */
            evidence_gaps: string[];
            standin?: boolean;
        };
        RetrievalChunk: {
            rank: number;
            source_title: string;
            /** @enum {string} */
            type: "content" | "attachment" | "background_doc";
            included: boolean;
            similarity: number;
            band: {
                /** @enum {string} */
                key: "high" | "relevant" | "somewhat" | "low";
                label: string;
                color: string;
                percent: number;
            };
            exclusion_reason: string | null;
            chunk_id: string | null;
            evidence_item_id: string | null;
            background_document_id: string | null;
            attachment_id: string | null;
            attachment_file_name: string | null;
            source_deleted: boolean;
            /** @description the page of its PDF the chunk starts on (null when its source is not a paged document) */
            page: number | null;
            text: string | null;
            text_truncated: boolean;
            /** @description the passage's near-duplicate group: the same passage in other e-mails, forwards, attachments */
            duplicates: {
                /** @description other evidence items holding the same passage (near-identical text) */
                count: number;
                /** @description those items, by title (the first 50); the passage was considered once for all of them */
                evidence: {
                    /** Format: uuid */
                    evidence_id: string;
                    title: string;
                }[];
            };
        };
        Investigation: {
            /** Format: uuid */
            investigation_id: string;
            title: string;
            description: string;
            evidence_count: number;
            background_document_count: number;
            /** Format: date-time */
            created_at: string;
        };
        FeedbackRecord: {
            /** Format: uuid */
            feedback_id: string;
            /** @enum {string} */
            action: "agree" | "disagree" | "unsure" | "regenerate" | "edit" | "view";
            /** @enum {string} */
            status: "accepted" | "rejected" | "needs_revision" | "regenerated" | "edited" | "viewed";
            reason: string | null;
            direction: string | null;
            actor: {
                /** Format: uuid */
                user_id: string;
                display_name: string | null;
            } | null;
            regenerated_analysis_id: string | null;
            revision_id: string | null;
            content: string | null;
            /** Format: date-time */
            created_at: string;
        };
        Assessment: {
            /** @description evidence items in the investigation */
            total_evidence: number;
            /** @description evidence items linked to the selected question; null unless a question analysis */
            linked_evidence: number | null;
            background_documents: {
                /** @description background documents of the investigation */
                count: number;
                /** @description whether any background document is included for the AI */
                included: boolean;
                /** @description background documents included for the AI */
                included_count: number;
            };
            source_breakdown: {
                /** @description evidence items with non-blank text content */
                content: number;
                /** @description attachments of the investigation's evidence items */
                attachments: number;
                /** @description background documents included for the AI */
                background_docs: number;
            };
            /** @description how far the evidence has been processed; an analysis started before all is ready waits a while for it */
            evidence_ready: {
                /** @description evidence items ready for analysis: their files extracted and their text embedded */
                ready: number;
                /** @description evidence items in the investigation (total_evidence) */
                total: number;
            };
            /** @description informational (never blocks): no evidence is linked directly to the question; evidence items still being processed */
            note: string | null;
            /** @description set only when the investigation has no evidence; generation cannot proceed */
            blocking: string | null;
            /** @description why POST /api/analysis would refuse this selection (409 with this message and details.reason); null when it would accept it */
            refusal: {
                /**
                 * @description no_evidence: the investigation has no evidence item; prompt_inactive: the prompt template of the analysis type is deactivated
                 * @enum {string}
                 */
                reason: "no_evidence" | "prompt_inactive";
                /** @description for the user; the same message POST /api/analysis answers 409 with */
                message: string;
            } | null;
            /** @description true exactly when refusal is null */
            can_generate: boolean;
        };
        SignInResult: {
            /** @constant */
            status: "signed_in";
            access_token: string;
            id_token: string;
            refresh_token?: string;
            expires_in: number;
            /** @constant */
            token_type: "Bearer";
        } | {
            /** @constant */
            status: "challenge";
            /** @enum {string} */
            challenge: "totp" | "sms" | "passkey" | "new_password" | "mfa_setup";
            username: string;
            session: string;
            credential_request_options?: {
                [key: string]: unknown;
            };
            secret_code?: string;
            otpauth_uri?: string;
        };
        PromptVersion: {
            prompt_type: string;
            version: number;
            is_active: boolean;
            is_current: boolean;
            /** @description set on a rollback: the version whose content this one restored */
            restored_from_version: number | null;
            /** @description what the administrator who made it says it changes */
            change_note: string | null;
            /** Format: date-time */
            created_at: string;
            created_by: {
                user_id: string;
                email: string;
                display_name: string;
            } | null;
            system_prompt: string;
            user_prompt_template: string;
        };
        SettingsList: {
            settings: {
                key: string;
                value: unknown;
                description: string;
            }[];
        };
        HealthResponse: {
            /** @enum {string} */
            status: "ok" | "unavailable";
            checks: {
                database: {
                    /** @enum {string} */
                    status: "ok" | "failed";
                    latency_ms: number;
                    error?: string;
                };
                generation_queue: {
                    /** @enum {string} */
                    status: "ok" | "failed";
                    latency_ms: number;
                    error?: string;
                };
                quality_queue: {
                    /** @enum {string} */
                    status: "ok" | "failed";
                    latency_ms: number;
                    error?: string;
                };
                storage: {
                    /** @enum {string} */
                    status: "ok" | "failed";
                    latency_ms: number;
                    error?: string;
                };
            };
            /** Format: date-time */
            time: string;
        };
        OpenapiResponse: {
            /** @constant */
            openapi: "3.1.0";
            info: {
                title: string;
                version: string;
            } & {
                [key: string]: unknown;
            };
            paths: {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        AuthForgotPasswordResponse: {
            /** @enum {string} */
            status: "code_sent" | "password_reset";
            message: string;
        };
        PaymentWebhookResponse: {
            /** @constant */
            received: true;
            event_id: string;
            /** @description the event was already processed; nothing changed */
            duplicate: boolean;
            /** @description set on the delivery that reached the first non-zero paid invoice */
            milestone: "first_paid_invoice" | null;
        };
        InvestigationsListResponse: {
            /** @description newest first */
            investigations: components["schemas"]["Investigation"][];
            /** @description pass as `cursor` for the next page; null on the last page */
            next_cursor: string | null;
        };
        InvestigationGetResponse: {
            /** Format: uuid */
            investigation_id: string;
            title: string;
            description: string;
            evidence_count: number;
            background_document_count: number;
            /** Format: date-time */
            created_at: string;
            questions: {
                /** Format: uuid */
                question_id: string;
                text: string;
                linked_evidence_count: number;
            }[];
            topics: {
                /** Format: uuid */
                topic_id: string;
                title: string;
                description: string;
            }[];
        };
        /** @description One list, one cursor: the evidence items (each with its attachments) by title, then the background documents by title. Every file carries the id and path GET /api/storage/view opens it with; every entry its readiness (GET …/evidence/{evidence_id} gives the states of its files). */
        InvestigationEvidenceResponse: {
            /** Format: uuid */
            investigation_id: string;
            items: ({
                /** @constant */
                kind: "evidence_item";
                /** Format: uuid */
                evidence_item_id: string;
                title: string;
                collected_at: string | null;
                attachments: {
                    /**
                     * Format: uuid
                     * @description the storage viewer's attachment_id
                     */
                    attachment_id: string;
                    file_name: string;
                    content_type: string;
                    size_bytes: number;
                    /** @description GET this path to open the file in the storage viewer (/api/storage/view) */
                    view_path: string;
                }[];
                /**
                 * @description ready: every text of the item is embedded, so retrieval finds it; processing: a file is awaited or being extracted, or a text waits for its embeddings; failed: a file could not be read, never arrived, or its text could not be embedded (the rest is analysed)
                 * @enum {string}
                 */
                readiness: "ready" | "processing" | "failed";
            } | {
                /** @constant */
                kind: "background_document";
                /**
                 * Format: uuid
                 * @description the storage viewer's background_document_id
                 */
                background_document_id: string;
                title: string;
                file_name: string;
                content_type: string;
                size_bytes: number;
                /** @description whether the AI is given this document (retrieval skips an excluded one) */
                included: boolean;
                /** @enum {string} */
                extraction_status: "awaiting_upload" | "pending" | "extracted" | "error";
                /**
                 * @description ready: every text of the item is embedded, so retrieval finds it; processing: a file is awaited or being extracted, or a text waits for its embeddings; failed: a file could not be read, never arrived, or its text could not be embedded (the rest is analysed)
                 * @enum {string}
                 */
                readiness: "ready" | "processing" | "failed";
                /** @description GET this path to open the file in the storage viewer (/api/storage/view) */
                view_path: string;
            })[];
            /** @description pass as `cursor` for the next page; null on the last page */
            next_cursor: string | null;
        };
        QuestionCreateResponse: {
            /** Format: uuid */
            question_id: string;
            text: string;
            linked_evidence_count: number;
            /** Format: uuid */
            investigation_id: string;
        };
        TopicCreateResponse: {
            /** Format: uuid */
            topic_id: string;
            title: string;
            description: string;
            /** Format: uuid */
            investigation_id: string;
        };
        EvidenceCreateResponse: {
            /** Format: uuid */
            evidence_id: string;
            /** Format: uuid */
            investigation_id: string;
            title: string;
            content: string;
            collected_at: string | null;
            linked_question_ids: string[];
            attachments: {
                /** Format: uuid */
                attachment_id: string;
                file_name: string;
                content_type: string;
                size_bytes: number;
                /**
                 * @description awaiting_upload: the upload URL was issued and the file has not arrived; pending: it arrived and its text is being extracted; extracted: its text is in, embedded as soon as the model quota allows; error: extraction failed (see error); upload_missing: the upload never arrived before its deadline (ask for a new upload URL, or delete it)
                 * @enum {string}
                 */
                state: "awaiting_upload" | "pending" | "extracted" | "error" | "upload_missing";
                error: string | null;
                /** @description a PDF's page count */
                pages: number | null;
                /** @description GET this path to open the file (/api/storage/view) */
                view_path: string;
            }[];
            /**
             * @description ready: every text of the item is embedded, so retrieval finds it; processing: a file is awaited or being extracted, or a text waits for its embeddings; failed: a file could not be read, never arrived, or its text could not be embedded (the rest is analysed)
             * @enum {string}
             */
            readiness: "ready" | "processing" | "failed";
            /** @description the item's passages, and those with their embeddings */
            chunks: {
                total: number;
                embedded: number;
            };
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            uploads: components["schemas"]["AttachmentUploadResponse"][];
        };
        EvidenceGetResponse: {
            /** Format: uuid */
            evidence_id: string;
            /** Format: uuid */
            investigation_id: string;
            title: string;
            content: string;
            collected_at: string | null;
            linked_question_ids: string[];
            attachments: {
                /** Format: uuid */
                attachment_id: string;
                file_name: string;
                content_type: string;
                size_bytes: number;
                /**
                 * @description awaiting_upload: the upload URL was issued and the file has not arrived; pending: it arrived and its text is being extracted; extracted: its text is in, embedded as soon as the model quota allows; error: extraction failed (see error); upload_missing: the upload never arrived before its deadline (ask for a new upload URL, or delete it)
                 * @enum {string}
                 */
                state: "awaiting_upload" | "pending" | "extracted" | "error" | "upload_missing";
                error: string | null;
                /** @description a PDF's page count */
                pages: number | null;
                /** @description GET this path to open the file (/api/storage/view) */
                view_path: string;
            }[];
            /**
             * @description ready: every text of the item is embedded, so retrieval finds it; processing: a file is awaited or being extracted, or a text waits for its embeddings; failed: a file could not be read, never arrived, or its text could not be embedded (the rest is analysed)
             * @enum {string}
             */
            readiness: "ready" | "processing" | "failed";
            /** @description the item's passages, and those with their embeddings */
            chunks: {
                total: number;
                embedded: number;
            };
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        EvidenceDeleteResponse: {
            /** Format: uuid */
            evidence_id: string;
            /** @constant */
            deleted: true;
            /** @description attachments deleted with it (their files too) */
            attachments: number;
            /** @description passages deleted with it, embeddings included */
            chunks: number;
        };
        AttachmentUploadResponse: {
            /** @description presigned S3 URL: send the file there with this method and these headers, the body exactly size_bytes long */
            url: string;
            /** @constant */
            method: "PUT";
            /** @description headers the signature binds (Content-Type); the body length is bound too */
            headers: {
                [key: string]: string;
            };
            /** Format: date-time */
            expires_at: string;
            /** Format: uuid */
            attachment_id: string;
        };
        BackgroundDocumentCreateResponse: {
            /** Format: uuid */
            background_document_id: string;
            /** Format: uuid */
            investigation_id: string;
            title: string;
            file_name: string;
            content_type: string;
            size_bytes: number;
            included_for_ai: boolean;
            /**
             * @description awaiting_upload: the upload URL was issued and the file has not arrived; pending: it arrived and its text is being extracted; extracted: its text is in, embedded as soon as the model quota allows; error: extraction failed (see error); upload_missing: the upload never arrived before its deadline (ask for a new upload URL, or delete it)
             * @enum {string}
             */
            state: "awaiting_upload" | "pending" | "extracted" | "error" | "upload_missing";
            error: string | null;
            pages: number | null;
            /**
             * @description ready: every text of the item is embedded, so retrieval finds it; processing: a file is awaited or being extracted, or a text waits for its embeddings; failed: a file could not be read, never arrived, or its text could not be embedded (the rest is analysed)
             * @enum {string}
             */
            readiness: "ready" | "processing" | "failed";
            view_path: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** @description Where the file goes: straight to the files bucket, never through the API */
            upload: {
                /** @description presigned S3 URL: send the file there with this method and these headers, the body exactly size_bytes long */
                url: string;
                /** @constant */
                method: "PUT";
                /** @description headers the signature binds (Content-Type); the body length is bound too */
                headers: {
                    [key: string]: string;
                };
                /** Format: date-time */
                expires_at: string;
            };
        };
        BackgroundDocumentUpdateResponse: {
            /** Format: uuid */
            background_document_id: string;
            /** Format: uuid */
            investigation_id: string;
            title: string;
            file_name: string;
            content_type: string;
            size_bytes: number;
            included_for_ai: boolean;
            /**
             * @description awaiting_upload: the upload URL was issued and the file has not arrived; pending: it arrived and its text is being extracted; extracted: its text is in, embedded as soon as the model quota allows; error: extraction failed (see error); upload_missing: the upload never arrived before its deadline (ask for a new upload URL, or delete it)
             * @enum {string}
             */
            state: "awaiting_upload" | "pending" | "extracted" | "error" | "upload_missing";
            error: string | null;
            pages: number | null;
            /**
             * @description ready: every text of the item is embedded, so retrieval finds it; processing: a file is awaited or being extracted, or a text waits for its embeddings; failed: a file could not be read, never arrived, or its text could not be embedded (the rest is analysed)
             * @enum {string}
             */
            readiness: "ready" | "processing" | "failed";
            view_path: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        BackgroundDocumentDeleteResponse: {
            /** Format: uuid */
            background_document_id: string;
            /** @constant */
            deleted: true;
            chunks: number;
        };
        ImportCreateResponse: {
            /** Format: uuid */
            import_id: string;
            /** Format: uuid */
            investigation_id: string;
            /** @enum {string} */
            format: "ndjson" | "seed";
            size_bytes: number;
            /**
             * @description awaiting_upload: the file has not arrived; queued: it arrived; processing: lines are being written; complete: every line was read (lines with errors are listed, the rest are in); failed: the file as a whole could not be read (see error)
             * @enum {string}
             */
            status: "awaiting_upload" | "queued" | "processing" | "complete" | "failed";
            /** @description lines (NDJSON) or evidence entries (seed) in the file, once it has been read */
            lines_total: number | null;
            /** @description lines read so far, with or without an error */
            lines_done: number;
            lines_failed: number;
            /** @description the first 100 problems, in line order; a line with a problem adds nothing */
            errors: {
                /** @description from 1 */
                line: number;
                field: string;
                message: string;
            }[];
            error: string | null;
            /** Format: date-time */
            created_at: string;
            finished_at: string | null;
            /** @description Where the file goes: straight to the files bucket, never through the API */
            upload: {
                /** @description presigned S3 URL: send the file there with this method and these headers, the body exactly size_bytes long */
                url: string;
                /** @constant */
                method: "PUT";
                /** @description headers the signature binds (Content-Type); the body length is bound too */
                headers: {
                    [key: string]: string;
                };
                /** Format: date-time */
                expires_at: string;
            };
        };
        ImportGetResponse: {
            /** Format: uuid */
            import_id: string;
            /** Format: uuid */
            investigation_id: string;
            /** @enum {string} */
            format: "ndjson" | "seed";
            size_bytes: number;
            /**
             * @description awaiting_upload: the file has not arrived; queued: it arrived; processing: lines are being written; complete: every line was read (lines with errors are listed, the rest are in); failed: the file as a whole could not be read (see error)
             * @enum {string}
             */
            status: "awaiting_upload" | "queued" | "processing" | "complete" | "failed";
            /** @description lines (NDJSON) or evidence entries (seed) in the file, once it has been read */
            lines_total: number | null;
            /** @description lines read so far, with or without an error */
            lines_done: number;
            lines_failed: number;
            /** @description the first 100 problems, in line order; a line with a problem adds nothing */
            errors: {
                /** @description from 1 */
                line: number;
                field: string;
                message: string;
            }[];
            error: string | null;
            /** Format: date-time */
            created_at: string;
            finished_at: string | null;
        };
        IngestionStatusResponse: {
            /** Format: uuid */
            investigation_id: string;
            /** @description evidence items and background documents */
            items_total: number;
            items_ready: number;
            items_processing: number;
            items_failed: number;
            chunks_total: number;
            /** @description passages waiting for their embeddings */
            chunks_pending: number;
            imports_in_progress: number;
            /** @description what could not be taken in (the first 100), with why */
            failed: {
                evidence_id: string | null;
                background_document_id: string | null;
                attachment_id: string | null;
                /** @enum {string} */
                source_type: "content" | "attachment" | "background_doc";
                title: string;
                file_name: string | null;
                message: string;
            }[];
        };
        AnalysisCreateResponse: {
            /** Format: uuid */
            analysis_id: string;
            /** @constant */
            generation_status: "queued";
            poll: string;
        };
        AnalysisListResponse: {
            /** @description newest first */
            analyses: components["schemas"]["Analysis"][];
            /** @description pass as `cursor` for the next page; null on the last page */
            next_cursor: string | null;
        };
        AnalysisQualityCheckResponse: {
            /** Format: uuid */
            analysis_id: string;
            /** @constant */
            generation_status: "checking";
            poll: string;
        };
        AnalysisQualityStatusResponse: {
            /** Format: uuid */
            analysis_id: string;
            /** @enum {string} */
            generation_status: "queued" | "generating" | "complete" | "failed" | "checking" | "verified" | "quality_unavailable";
            /** @enum {string} */
            quality_state: "not_started" | "checking" | "verified" | "failed" | "unavailable";
            faithfulness_score: number | null;
            coverage_score: number | null;
            quality_confidence: ("established" | "probable" | "possible" | "insufficient") | null;
            quality_error: string | null;
            quality_checked_at: string | null;
            checking_since: string | null;
            ai_wait_until: string | null;
        };
        AnalysisRetrievalResponse: {
            /** Format: uuid */
            analysis_id: string;
            /** @description no retrieved chunk reached the similarity floor, so the analysis rests on the closest few, which may be only weakly related to the question (the prompt told the model so) */
            low_relevance: boolean;
            chunks: components["schemas"]["RetrievalChunk"][];
            summary: {
                total: number;
                included: number;
                excluded: number;
                /** @description the rule the passages were chosen by when the analysis was generated; null for analyses made before it was recorded */
                rule: {
                    /** @description the similarity floor: a passage below it is not given to the AI */
                    min_similarity: number;
                    /** @description at most this many passages at or above the floor are given to the AI */
                    max_included: number;
                    /** @description when none reaches the floor, this many of the closest are given instead */
                    low_relevance_included: number;
                } | null;
            };
        };
        AnalysisRetrievalChunkResponse: {
            /** Format: uuid */
            analysis_id: string;
            chunk: {
                rank: number;
                source_title: string;
                /** @enum {string} */
                type: "content" | "attachment" | "background_doc";
                included: boolean;
                similarity: number;
                band: {
                    /** @enum {string} */
                    key: "high" | "relevant" | "somewhat" | "low";
                    label: string;
                    color: string;
                    percent: number;
                };
                exclusion_reason: string | null;
                /** Format: uuid */
                chunk_id: string;
                evidence_item_id: string | null;
                background_document_id: string | null;
                attachment_id: string | null;
                attachment_file_name: string | null;
                source_deleted: boolean;
                /** @description the page of its PDF the chunk starts on (null when its source is not a paged document) */
                page: number | null;
                /** @description the whole chunk */
                text: string;
                text_truncated: boolean;
                /** @description the passage's near-duplicate group: the same passage in other e-mails, forwards, attachments */
                duplicates: {
                    /** @description other evidence items holding the same passage (near-identical text) */
                    count: number;
                    /** @description those items, by title (the first 50); the passage was considered once for all of them */
                    evidence: {
                        /** Format: uuid */
                        evidence_id: string;
                        title: string;
                    }[];
                };
                chunk_index: number;
            };
            /** @description the chunk with its neighbouring chunks of the same source, joined where they overlap; passage.text.slice(chunk_start, chunk_end) is the chunk; more_before / more_after: the source goes on past the passage */
            passage: {
                text: string;
                chunk_start: number;
                chunk_end: number;
                more_before: boolean;
                more_after: boolean;
            };
        };
        AnalysisEngagementResponse: {
            /** Format: uuid */
            analysis_id: string;
            detail_reviewed_at: string | null;
            citation_checked_at: string | null;
            judgment_enabled: boolean;
        };
        AnalysisFeedbackCreateResponse: {
            feedback: components["schemas"]["FeedbackRecord"];
            analysis: {
                /** Format: uuid */
                analysis_id: string;
                feedback_status: ("accepted" | "rejected" | "needs_revision" | "regenerated" | "edited" | "viewed") | null;
                feedback_badge: {
                    key: string;
                    label: string;
                    color: string;
                } | null;
            };
            regenerated_analysis?: {
                /** Format: uuid */
                analysis_id: string;
                generation_status: string;
                poll: string;
            };
            prompt?: string;
            regeneration_draft?: {
                /** @enum {string} */
                reason: "inaccurate_conclusions" | "missing_evidence" | "too_vague" | "wrong_focus" | "other";
                direction: string;
            };
            replayed: boolean;
        };
        AnalysisFeedbackListResponse: {
            /** Format: uuid */
            analysis_id: string;
            /** @description oldest first */
            feedback: components["schemas"]["FeedbackRecord"][];
            /** @description pass as `cursor` for the next page; null on the last page */
            next_cursor: string | null;
        };
        FeedbackMetricsResponse: {
            /** Format: uuid */
            investigation_id: string;
            /** Format: date-time */
            as_of: string;
            totals: {
                analyses: number;
                judgments: number;
                accepted: number;
                rejected: number;
                needs_revision: number;
                regenerated_analyses: number;
                edited_analyses: number;
                regenerations: number;
                edits: number;
                views: number;
            };
            rates: {
                acceptance: number | null;
                rejection: number | null;
                needs_revision: number | null;
                regeneration: number | null;
                edit: number | null;
            };
            by_type: {
                /** @enum {string} */
                analysis_type: "question" | "topic" | "summary" | "gap" | "error_check";
                analyses: number;
                judgments: number;
                accepted: number;
                rejected: number;
                needs_revision: number;
                regenerated_analyses: number;
                edited_analyses: number;
                rates: {
                    acceptance: number | null;
                    rejection: number | null;
                    needs_revision: number | null;
                    regeneration: number | null;
                    edit: number | null;
                };
            }[];
            top_regeneration_reasons: {
                /** @enum {string} */
                reason: "inaccurate_conclusions" | "missing_evidence" | "too_vague" | "wrong_focus" | "other";
                /** @enum {string} */
                label: "Inaccurate conclusions" | "Missing evidence" | "Too vague" | "Wrong focus" | "Other";
                count: number;
                share: number;
            }[];
            weekly_trend: {
                /** Format: date-time */
                week_start: string;
                judgments: number;
                accepted: number;
                rejected: number;
                needs_revision: number;
                acceptance_rate: number | null;
                regenerations: number;
                edits: number;
            }[];
        };
        StorageViewResponse: {
            /** @enum {string} */
            kind: "attachment" | "background_document";
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            investigation_id: string;
            file_name: string;
            content_type: string;
            size_bytes: number;
            /** @description presigned S3 GET URL; answers with the file, its content type and a Content-Disposition naming it */
            url: string;
            expires_in_seconds: number;
            /** Format: date-time */
            expires_at: string;
        };
        BackgroundExtractTextResponse: {
            /** Format: uuid */
            background_document_id: string;
            /** Format: uuid */
            investigation_id: string;
            file_name: string;
            /** @enum {string} */
            format: "pdf" | "docx" | "text" | "email";
            characters: number;
            pages: number | null;
            chunks: number;
            replaced_chunks: number;
            /** @constant */
            extraction_status: "extracted";
            /** @constant */
            embedding_status: "pending";
        };
        /** @description without version: the list (up to 20, newest first); with version: that version in full and its diff against the current one */
        AdminPromptHistoryResponse: {
            prompt_type: string;
            /** @description false when the type is deactivated: analyses of it are refused */
            is_active: boolean;
            current_version: number | null;
            latest_version: number | null;
            total_versions: number;
            /** @description newest first */
            versions: {
                version: number;
                is_active: boolean;
                is_current: boolean;
                /** @description set on a rollback: the version whose content this one restored */
                restored_from_version: number | null;
                /** @description what the administrator who made it says it changes */
                change_note: string | null;
                /** Format: date-time */
                created_at: string;
                created_by: {
                    user_id: string;
                    email: string;
                    display_name: string;
                } | null;
                /** @description the start of the user prompt template, whitespace collapsed */
                preview: string;
                system_prompt_chars: number;
                user_prompt_template_chars: number;
                /** @description what this version changed against the version before it; null for the first version */
                change: {
                    from_version: number;
                    /** @description lines changed, added or removed, in the system prompt and the template together */
                    lines_changed: number;
                    /** @description the first changed or added line of this version, whitespace collapsed */
                    first_change: string | null;
                } | null;
            }[];
            /** @description pass as `cursor` for the next page; null on the last page */
            next_cursor: string | null;
        } | {
            prompt_type: string;
            version: number;
            is_active: boolean;
            is_current: boolean;
            /** @description set on a rollback: the version whose content this one restored */
            restored_from_version: number | null;
            /** @description what the administrator who made it says it changes */
            change_note: string | null;
            /** Format: date-time */
            created_at: string;
            created_by: {
                user_id: string;
                email: string;
                display_name: string;
            } | null;
            system_prompt: string;
            user_prompt_template: string;
            current_version: number;
            diff: {
                /** @description the version asked for (left column) */
                left_version: number;
                /** @description the current version (right column) */
                right_version: number;
                identical: boolean;
                counts: {
                    system_prompt: {
                        same: number;
                        changed: number;
                        removed: number;
                        added: number;
                    };
                    user_prompt_template: {
                        same: number;
                        changed: number;
                        removed: number;
                        added: number;
                    };
                };
                system_prompt: {
                    /** @enum {string} */
                    kind: "same" | "changed" | "removed" | "added";
                    left_line_no: number | null;
                    left: string | null;
                    right_line_no: number | null;
                    right: string | null;
                }[];
                user_prompt_template: {
                    /** @enum {string} */
                    kind: "same" | "changed" | "removed" | "added";
                    left_line_no: number | null;
                    left: string | null;
                    right_line_no: number | null;
                    right: string | null;
                }[];
            };
        };
        AdminPromptUpdateResponse: {
            prompt_type: string;
            is_active: boolean;
            /** @description false when the type was already in that state */
            changed: boolean;
            current_version: number;
        };
        AdminQueueStatsResponse: {
            queues: {
                generation: {
                    /** @description ApproximateNumberOfMessages: waiting to be received */
                    visible: number | null;
                    /** @description ApproximateNumberOfMessagesNotVisible: received by a worker, not yet done */
                    in_flight: number | null;
                    /** @description ApproximateNumberOfMessagesDelayed */
                    delayed: number | null;
                    /** @description the dead-letter queue's ApproximateNumberOfMessages: messages that failed every attempt */
                    dlq_depth: number | null;
                    /** @description why some numbers are null (SQS unreachable, queue not configured, …); null when all were read */
                    error: string | null;
                };
                quality: {
                    /** @description ApproximateNumberOfMessages: waiting to be received */
                    visible: number | null;
                    /** @description ApproximateNumberOfMessagesNotVisible: received by a worker, not yet done */
                    in_flight: number | null;
                    /** @description ApproximateNumberOfMessagesDelayed */
                    delayed: number | null;
                    /** @description the dead-letter queue's ApproximateNumberOfMessages: messages that failed every attempt */
                    dlq_depth: number | null;
                    /** @description why some numbers are null (SQS unreachable, queue not configured, …); null when all were read */
                    error: string | null;
                };
                ingestion: {
                    /** @description ApproximateNumberOfMessages: waiting to be received */
                    visible: number | null;
                    /** @description ApproximateNumberOfMessagesNotVisible: received by a worker, not yet done */
                    in_flight: number | null;
                    /** @description ApproximateNumberOfMessagesDelayed */
                    delayed: number | null;
                    /** @description the dead-letter queue's ApproximateNumberOfMessages: messages that failed every attempt */
                    dlq_depth: number | null;
                    /** @description why some numbers are null (SQS unreachable, queue not configured, …); null when all were read */
                    error: string | null;
                };
                imports: {
                    /** @description ApproximateNumberOfMessages: waiting to be received */
                    visible: number | null;
                    /** @description ApproximateNumberOfMessagesNotVisible: received by a worker, not yet done */
                    in_flight: number | null;
                    /** @description ApproximateNumberOfMessagesDelayed */
                    delayed: number | null;
                    /** @description the dead-letter queue's ApproximateNumberOfMessages: messages that failed every attempt */
                    dlq_depth: number | null;
                    /** @description why some numbers are null (SQS unreachable, queue not configured, …); null when all were read */
                    error: string | null;
                };
                embedding: {
                    /** @description ApproximateNumberOfMessages: waiting to be received */
                    visible: number | null;
                    /** @description ApproximateNumberOfMessagesNotVisible: received by a worker, not yet done */
                    in_flight: number | null;
                    /** @description ApproximateNumberOfMessagesDelayed */
                    delayed: number | null;
                    /** @description the dead-letter queue's ApproximateNumberOfMessages: messages that failed every attempt */
                    dlq_depth: number | null;
                    /** @description why some numbers are null (SQS unreachable, queue not configured, …); null when all were read */
                    error: string | null;
                };
            };
            shedder: {
                /** @description quality calls are being shed */
                hot: boolean;
                /** @description model throttles in the last 60 s, all regions */
                recentThrottles: number;
                fallbackRegion: string;
                /** @description AI_SHEDDER_DISABLED */
                disabled: boolean;
            };
            embedding: {
                /** @description chunks waiting for their embeddings (a near-duplicate, which takes its representative's vector, not counted) */
                pending: number;
                /** @description embedding requests to the model in the last hour, every attempt (the ledger: evidence batches of up to 96 texts, and each analysis’s query) */
                requests_last_hour: number;
                /** @description chunks that got their vectors in the last hour (from the model, or copied from their representative) */
                chunks_embedded_last_hour: number;
            };
            /** Format: date-time */
            time: string;
        };
        AdminAuditHealthResponse: {
            /** @enum {string} */
            status: "healthy" | "degraded";
            window_hours: number;
            /** Format: date-time */
            since: string;
            /** Format: date-time */
            checked_at: string;
            total_failures: number;
            /** @description most recently failing first */
            failing_actions: {
                action: string;
                /** @description failed audit writes of this action in the window */
                failures: number;
                /** @description audit rows of this action that were written in the window */
                written: number;
                last_error_message: string;
                /** Format: date-time */
                last_failed_at: string;
            }[];
        };
        AdminUsersResponse: {
            /** @description this page's users by organization, operators first, then by organization name; users by email */
            organizations: {
                /** @description null: the operators (administrators belong to no organization) */
                organization_id: string | null;
                organization_name: string | null;
                users: {
                    user_id: string;
                    email: string;
                    display_name: string;
                    /** @enum {string} */
                    role: "admin" | "investigator";
                    /** Format: date-time */
                    created_at: string;
                    ai_usage: {
                        /** @description the AI usage count: every ledger row of the user (all outcomes) */
                        calls: number;
                        successful_calls: number;
                        input_tokens: number;
                        output_tokens: number;
                        last_call_at: string | null;
                    };
                }[];
            }[];
            /** @description pass as `cursor` for the next page; null on the last page */
            next_cursor: string | null;
        };
        AdminJobsStatusResponse: {
            jobs: {
                job: string;
                /** @description the newest run, whatever its outcome; null when the job never ran */
                last_run: {
                    /** Format: uuid */
                    job_run_id: string;
                    /** @enum {string} */
                    trigger: "schedule" | "http";
                    /** @enum {string} */
                    status: "running" | "succeeded" | "failed";
                    /** Format: date-time */
                    started_at: string;
                    finished_at: string | null;
                    /** @description the job's report (succeeded runs); null otherwise */
                    report: unknown;
                    error_message: string | null;
                } | null;
                /** @description when the newest successful run finished (what the "no run for 26 hours" alarm watches) */
                last_succeeded_at: string | null;
                /** @description its EventBridge schedule expression */
                schedule: string | null;
            }[];
            queues: {
                generation: {
                    /** @description ApproximateNumberOfMessages: waiting to be received */
                    visible: number | null;
                    /** @description ApproximateNumberOfMessagesNotVisible: received by a worker, not yet done */
                    in_flight: number | null;
                    /** @description ApproximateNumberOfMessagesDelayed */
                    delayed: number | null;
                    /** @description the dead-letter queue's ApproximateNumberOfMessages: messages that failed every attempt */
                    dlq_depth: number | null;
                    /** @description why some numbers are null (SQS unreachable, queue not configured, …); null when all were read */
                    error: string | null;
                };
                quality: {
                    /** @description ApproximateNumberOfMessages: waiting to be received */
                    visible: number | null;
                    /** @description ApproximateNumberOfMessagesNotVisible: received by a worker, not yet done */
                    in_flight: number | null;
                    /** @description ApproximateNumberOfMessagesDelayed */
                    delayed: number | null;
                    /** @description the dead-letter queue's ApproximateNumberOfMessages: messages that failed every attempt */
                    dlq_depth: number | null;
                    /** @description why some numbers are null (SQS unreachable, queue not configured, …); null when all were read */
                    error: string | null;
                };
                ingestion: {
                    /** @description ApproximateNumberOfMessages: waiting to be received */
                    visible: number | null;
                    /** @description ApproximateNumberOfMessagesNotVisible: received by a worker, not yet done */
                    in_flight: number | null;
                    /** @description ApproximateNumberOfMessagesDelayed */
                    delayed: number | null;
                    /** @description the dead-letter queue's ApproximateNumberOfMessages: messages that failed every attempt */
                    dlq_depth: number | null;
                    /** @description why some numbers are null (SQS unreachable, queue not configured, …); null when all were read */
                    error: string | null;
                };
                imports: {
                    /** @description ApproximateNumberOfMessages: waiting to be received */
                    visible: number | null;
                    /** @description ApproximateNumberOfMessagesNotVisible: received by a worker, not yet done */
                    in_flight: number | null;
                    /** @description ApproximateNumberOfMessagesDelayed */
                    delayed: number | null;
                    /** @description the dead-letter queue's ApproximateNumberOfMessages: messages that failed every attempt */
                    dlq_depth: number | null;
                    /** @description why some numbers are null (SQS unreachable, queue not configured, …); null when all were read */
                    error: string | null;
                };
                embedding: {
                    /** @description ApproximateNumberOfMessages: waiting to be received */
                    visible: number | null;
                    /** @description ApproximateNumberOfMessagesNotVisible: received by a worker, not yet done */
                    in_flight: number | null;
                    /** @description ApproximateNumberOfMessagesDelayed */
                    delayed: number | null;
                    /** @description the dead-letter queue's ApproximateNumberOfMessages: messages that failed every attempt */
                    dlq_depth: number | null;
                    /** @description why some numbers are null (SQS unreachable, queue not configured, …); null when all were read */
                    error: string | null;
                };
            };
            analyses_in_flight: {
                queued: {
                    count: number;
                    /** @description seconds since the longest-waiting analysis entered this status; null when none */
                    oldest_age_seconds: number | null;
                };
                generating: {
                    count: number;
                    /** @description seconds since the longest-waiting analysis entered this status; null when none */
                    oldest_age_seconds: number | null;
                };
                checking: {
                    count: number;
                    /** @description seconds since the longest-waiting analysis entered this status; null when none */
                    oldest_age_seconds: number | null;
                };
            };
            /** Format: date-time */
            time: string;
        };
        EmbeddingSweeperResponse: {
            /** @description sources embedded by this sweep */
            embedded: number;
            /** @description chunks stored by this sweep (with their vectors) */
            chunks: number;
            /** @description sources whose attempt failed in this sweep (status error, error_message set) */
            failed: number;
            /** @description of those, sources that reached the attempt cap in this sweep and will not be retried */
            gave_up: number;
            /** @description sources claimed but left as they were: text not extracted yet, changed during the sweep, or out of time */
            skipped: number;
            /** @description status rows whose source no longer exists, deleted */
            removed: number;
            /** @description sources still to embed after the sweep (pending, or error below the attempt cap) */
            remaining: number;
            /** @description all sources in error at the attempt cap (need attention; retried only when re-queued) */
            errors_given_up: number;
            /** @description sources not embedded whose row is older than 24 hours, counted after the sweep; 0 means none (the alarm fires above 0) */
            pendingOver24hAfterSweep: number;
            max_attempts: number;
            /**
             * @description why the sweep ended: nothing left, batch limit, time budget, or the AI service unavailable
             * @enum {string}
             */
            stopped_by: "done" | "batch_limit" | "time_budget" | "ai_unavailable";
            /** Format: date-time */
            started_at: string;
            /** Format: date-time */
            finished_at: string;
            duration_ms: number;
            /** Format: uuid */
            job_run_id: string;
        };
        RetentionSweepResponse: {
            categories: {
                rate_limit_counters: {
                    /** @description rows deleted by this run */
                    deleted: number;
                    /** @description rows older than this were due; null when the category is kept for ever */
                    cutoff: string | null;
                    /** @description false when the time budget ended before every due row was deleted (the next run goes on) */
                    complete: boolean;
                };
                ai_quota_reservations: {
                    /** @description rows deleted by this run */
                    deleted: number;
                    /** @description rows older than this were due; null when the category is kept for ever */
                    cutoff: string | null;
                    /** @description false when the time budget ended before every due row was deleted (the next run goes on) */
                    complete: boolean;
                };
                job_runs: {
                    /** @description rows deleted by this run */
                    deleted: number;
                    /** @description rows older than this were due; null when the category is kept for ever */
                    cutoff: string | null;
                    /** @description false when the time budget ended before every due row was deleted (the next run goes on) */
                    complete: boolean;
                };
                audit_failures: {
                    /** @description rows deleted by this run */
                    deleted: number;
                    /** @description rows older than this were due; null when the category is kept for ever */
                    cutoff: string | null;
                    /** @description false when the time budget ended before every due row was deleted (the next run goes on) */
                    complete: boolean;
                };
                ai_calls: {
                    /** @description rows deleted by this run */
                    deleted: number;
                    /** @description rows older than this were due; null when the category is kept for ever */
                    cutoff: string | null;
                    /** @description false when the time budget ended before every due row was deleted (the next run goes on) */
                    complete: boolean;
                };
                audit_log: {
                    /** @description rows deleted by this run */
                    deleted: number;
                    /** @description rows older than this were due; null when the category is kept for ever */
                    cutoff: string | null;
                    /** @description false when the time budget ended before every due row was deleted (the next run goes on) */
                    complete: boolean;
                };
                failed_analyses: {
                    /** @description rows deleted by this run */
                    deleted: number;
                    /** @description rows older than this were due; null when the category is kept for ever */
                    cutoff: string | null;
                    /** @description false when the time budget ended before every due row was deleted (the next run goes on) */
                    complete: boolean;
                };
            };
            /** @description days kept per configurable category (0 = for ever) */
            policy: {
                [key: string]: number;
            };
            deleted_total: number;
            /** @description every category swept to its cut-off */
            complete: boolean;
            /** Format: date-time */
            started_at: string;
            /** Format: date-time */
            finished_at: string;
            duration_ms: number;
            /** Format: uuid */
            job_run_id: string;
        };
        AnalysisRequest: {
            /** Format: uuid */
            investigation_id: string;
            /**
             * @description question and topic analyses need question_id or topic_id; summary, gap and error_check cover the whole investigation
             * @enum {string}
             */
            analysis_type: "question" | "topic" | "summary" | "gap" | "error_check";
            /** @description required for, and only for, a question analysis */
            question_id?: string | null;
            /** @description required for, and only for, a topic analysis */
            topic_id?: string | null;
        };
        FeedbackRequest: {
            /** @constant */
            action: "agree";
            request_id?: string;
        } | {
            /** @constant */
            action: "disagree";
            reason: string;
            request_id?: string;
        } | {
            /** @constant */
            action: "unsure";
            direction?: string;
            request_id?: string;
        } | {
            /** @constant */
            action: "regenerate";
            /** @enum {string} */
            reason: "inaccurate_conclusions" | "missing_evidence" | "too_vague" | "wrong_focus" | "other";
            direction?: string;
            request_id?: string;
        } | {
            /** @constant */
            action: "edit";
            content: string;
            request_id?: string;
        } | {
            /** @constant */
            action: "view";
            request_id?: string;
        };
        AuthLoginRequest: {
            /** Format: email */
            email: string;
            /**
             * @default password
             * @enum {string}
             */
            method: "password" | "passkey";
            password?: string;
        };
        AuthMfaVerifyRequest: {
            username: string;
            session: string;
            /** @enum {string} */
            challenge: "totp" | "sms";
            code: string;
        };
        AuthMfaSetupRequest: {
            username: string;
            session: string;
            code: string;
        };
        AuthWebauthnVerifyRequest: {
            username: string;
            session: string;
            credential: {
                id: string;
                rawId: string;
                /** @constant */
                type: "public-key";
                response: {
                    clientDataJSON: string;
                    authenticatorData: string;
                    signature: string;
                    userHandle?: string;
                };
                authenticatorAttachment?: string;
                /** @default {} */
                clientExtensionResults: {
                    [key: string]: unknown;
                };
            };
        };
        AuthNewPasswordRequest: {
            username: string;
            session: string;
            new_password: string;
        };
        AuthForgotPasswordRequest: {
            /** Format: email */
            email: string;
            code?: string;
            new_password?: string;
        };
        PaymentWebhookRequest: {
            id: string;
            type: string;
            data: {
                object: {
                    id?: string;
                    amount_paid?: number;
                    currency?: string;
                } & {
                    [key: string]: unknown;
                };
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        InvestigationCreateRequest: {
            title: string;
            description?: string;
        };
        InvestigationUpdateRequest: {
            title?: string;
            description?: string;
        };
        QuestionCreateRequest: {
            text: string;
        };
        TopicCreateRequest: {
            title: string;
            description?: string;
        };
        EvidenceCreateRequest: {
            title: string;
            /** @description the item's own text (may be left out when the item is only its files) */
            content?: string;
            collected_at?: string;
            /** @description questions of this investigation the item is evidence for (another investigation's question is refused) */
            linked_question_ids?: string[];
            /** @description files to upload: each gets a presigned upload in the answer */
            attachments?: {
                file_name: string;
                /** @description the file's media type: PDF, Word (.docx), e-mail (.eml) and plain text (.txt, .md, .csv); application/octet-stream lets the file name's extension decide */
                content_type: string;
                size_bytes: number;
            }[];
            /** @description retrying a create with the same key answers the first result again (fresh upload URLs for files not yet arrived) and adds nothing */
            idempotency_key?: string;
        };
        EvidenceUpdateRequest: {
            title?: string;
            /** @description replaces the text; its passages are embedded again */
            content?: string;
            collected_at?: (string) | null;
            /** @description replaces the links */
            linked_question_ids?: string[];
        };
        AttachmentAddRequest: {
            attachments: {
                file_name: string;
                /** @description the file's media type: PDF, Word (.docx), e-mail (.eml) and plain text (.txt, .md, .csv); application/octet-stream lets the file name's extension decide */
                content_type: string;
                size_bytes: number;
            }[];
        };
        BackgroundDocumentCreateRequest: {
            file_name: string;
            /** @description the file's media type: PDF, Word (.docx), e-mail (.eml) and plain text (.txt, .md, .csv); application/octet-stream lets the file name's extension decide */
            content_type: string;
            size_bytes: number;
            title: string;
            /**
             * @description false keeps the document out of AI analyses (retrieval skips it)
             * @default true
             */
            included_for_ai: boolean;
        };
        BackgroundDocumentUpdateRequest: {
            title?: string;
            included_for_ai?: boolean;
        };
        ImportCreateRequest: {
            /**
             * @description ndjson: one evidence item a line, the fields of POST …/evidence with attachments given as { file_name, content_type, text }; seed: one investigation of the seed format (docs/seed-format.md): its questions, topics, evidence and background documents
             * @enum {string}
             */
            format: "ndjson" | "seed";
            size_bytes: number;
        };
        AnalysisEngagementRequest: {
            /** @enum {string} */
            step: "detail_reviewed" | "citation_checked";
        };
        BackgroundExtractTextRequest: {
            /** Format: uuid */
            background_document_id: string;
        };
        AdminPromptRollbackRequest: {
            /** @enum {string} */
            prompt_type: "analysis_question" | "analysis_topic" | "analysis_summary" | "analysis_gap" | "analysis_error_check" | "quality_faithfulness" | "quality_coverage";
            version: number;
        };
        AdminPromptCreateRequest: {
            /** @enum {string} */
            prompt_type: "analysis_question" | "analysis_topic" | "analysis_summary" | "analysis_gap" | "analysis_error_check" | "quality_faithfulness" | "quality_coverage";
            system_prompt: string;
            user_prompt_template: string;
            /** @description what this version changes, in a sentence: shown on its card */
            change_note?: string;
        };
        AdminPromptUpdateRequest: {
            is_active: boolean;
        };
        AdminSettingsPutRequest: {
            settings: {
                [key: string]: unknown;
            };
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description The gateway's id of this request: quote it to an operator, who finds its log lines by it */
        RequestId: string;
        /** @description Seconds to wait before retrying */
        RetryAfter: number;
        /** @description Where the created or accepted resource is read */
        Location: string;
    };
    pathItems: never;
}
export type ApiError = components['schemas']['ApiError'];
export type GatewayMessage = components['schemas']['GatewayMessage'];
export type Analysis = components['schemas']['Analysis'];
export type AnalysisDetail = components['schemas']['AnalysisDetail'];
export type ClaimVerdict = components['schemas']['ClaimVerdict'];
export type CoverageAspect = components['schemas']['CoverageAspect'];
export type AnalysisExport = components['schemas']['AnalysisExport'];
export type AnalysisAnswer = components['schemas']['AnalysisAnswer'];
export type RetrievalChunk = components['schemas']['RetrievalChunk'];
export type Investigation = components['schemas']['Investigation'];
export type FeedbackRecord = components['schemas']['FeedbackRecord'];
export type Assessment = components['schemas']['Assessment'];
export type SignInResult = components['schemas']['SignInResult'];
export type PromptVersion = components['schemas']['PromptVersion'];
export type SettingsList = components['schemas']['SettingsList'];
export type HealthResponse = components['schemas']['HealthResponse'];
export type OpenapiResponse = components['schemas']['OpenapiResponse'];
export type AuthForgotPasswordResponse = components['schemas']['AuthForgotPasswordResponse'];
export type PaymentWebhookResponse = components['schemas']['PaymentWebhookResponse'];
export type InvestigationsListResponse = components['schemas']['InvestigationsListResponse'];
export type InvestigationGetResponse = components['schemas']['InvestigationGetResponse'];
export type InvestigationEvidenceResponse = components['schemas']['InvestigationEvidenceResponse'];
export type QuestionCreateResponse = components['schemas']['QuestionCreateResponse'];
export type TopicCreateResponse = components['schemas']['TopicCreateResponse'];
export type EvidenceCreateResponse = components['schemas']['EvidenceCreateResponse'];
export type EvidenceGetResponse = components['schemas']['EvidenceGetResponse'];
export type EvidenceDeleteResponse = components['schemas']['EvidenceDeleteResponse'];
export type AttachmentUploadResponse = components['schemas']['AttachmentUploadResponse'];
export type BackgroundDocumentCreateResponse = components['schemas']['BackgroundDocumentCreateResponse'];
export type BackgroundDocumentUpdateResponse = components['schemas']['BackgroundDocumentUpdateResponse'];
export type BackgroundDocumentDeleteResponse = components['schemas']['BackgroundDocumentDeleteResponse'];
export type ImportCreateResponse = components['schemas']['ImportCreateResponse'];
export type ImportGetResponse = components['schemas']['ImportGetResponse'];
export type IngestionStatusResponse = components['schemas']['IngestionStatusResponse'];
export type AnalysisCreateResponse = components['schemas']['AnalysisCreateResponse'];
export type AnalysisListResponse = components['schemas']['AnalysisListResponse'];
export type AnalysisQualityCheckResponse = components['schemas']['AnalysisQualityCheckResponse'];
export type AnalysisQualityStatusResponse = components['schemas']['AnalysisQualityStatusResponse'];
export type AnalysisRetrievalResponse = components['schemas']['AnalysisRetrievalResponse'];
export type AnalysisRetrievalChunkResponse = components['schemas']['AnalysisRetrievalChunkResponse'];
export type AnalysisEngagementResponse = components['schemas']['AnalysisEngagementResponse'];
export type AnalysisFeedbackCreateResponse = components['schemas']['AnalysisFeedbackCreateResponse'];
export type AnalysisFeedbackListResponse = components['schemas']['AnalysisFeedbackListResponse'];
export type FeedbackMetricsResponse = components['schemas']['FeedbackMetricsResponse'];
export type StorageViewResponse = components['schemas']['StorageViewResponse'];
export type BackgroundExtractTextResponse = components['schemas']['BackgroundExtractTextResponse'];
export type AdminPromptHistoryResponse = components['schemas']['AdminPromptHistoryResponse'];
export type AdminPromptUpdateResponse = components['schemas']['AdminPromptUpdateResponse'];
export type AdminQueueStatsResponse = components['schemas']['AdminQueueStatsResponse'];
export type AdminAuditHealthResponse = components['schemas']['AdminAuditHealthResponse'];
export type AdminUsersResponse = components['schemas']['AdminUsersResponse'];
export type AdminJobsStatusResponse = components['schemas']['AdminJobsStatusResponse'];
export type EmbeddingSweeperResponse = components['schemas']['EmbeddingSweeperResponse'];
export type RetentionSweepResponse = components['schemas']['RetentionSweepResponse'];
export type AnalysisRequest = components['schemas']['AnalysisRequest'];
export type FeedbackRequest = components['schemas']['FeedbackRequest'];
export type AuthLoginRequest = components['schemas']['AuthLoginRequest'];
export type AuthMfaVerifyRequest = components['schemas']['AuthMfaVerifyRequest'];
export type AuthMfaSetupRequest = components['schemas']['AuthMfaSetupRequest'];
export type AuthWebauthnVerifyRequest = components['schemas']['AuthWebauthnVerifyRequest'];
export type AuthNewPasswordRequest = components['schemas']['AuthNewPasswordRequest'];
export type AuthForgotPasswordRequest = components['schemas']['AuthForgotPasswordRequest'];
export type PaymentWebhookRequest = components['schemas']['PaymentWebhookRequest'];
export type InvestigationCreateRequest = components['schemas']['InvestigationCreateRequest'];
export type InvestigationUpdateRequest = components['schemas']['InvestigationUpdateRequest'];
export type QuestionCreateRequest = components['schemas']['QuestionCreateRequest'];
export type TopicCreateRequest = components['schemas']['TopicCreateRequest'];
export type EvidenceCreateRequest = components['schemas']['EvidenceCreateRequest'];
export type EvidenceUpdateRequest = components['schemas']['EvidenceUpdateRequest'];
export type AttachmentAddRequest = components['schemas']['AttachmentAddRequest'];
export type BackgroundDocumentCreateRequest = components['schemas']['BackgroundDocumentCreateRequest'];
export type BackgroundDocumentUpdateRequest = components['schemas']['BackgroundDocumentUpdateRequest'];
export type ImportCreateRequest = components['schemas']['ImportCreateRequest'];
export type AnalysisEngagementRequest = components['schemas']['AnalysisEngagementRequest'];
export type BackgroundExtractTextRequest = components['schemas']['BackgroundExtractTextRequest'];
export type AdminPromptRollbackRequest = components['schemas']['AdminPromptRollbackRequest'];
export type AdminPromptCreateRequest = components['schemas']['AdminPromptCreateRequest'];
export type AdminPromptUpdateRequest = components['schemas']['AdminPromptUpdateRequest'];
export type AdminSettingsPutRequest = components['schemas']['AdminSettingsPutRequest'];
export type HeaderRequestId = components['headers']['RequestId'];
export type HeaderRetryAfter = components['headers']['RetryAfter'];
export type HeaderLocation = components['headers']['Location'];
export type $defs = Record<string, never>;
export interface operations {
    health: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HealthResponse"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description API Gateway's throttle */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    openapi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenapiResponse"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description API Gateway's throttle */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "auth-login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AuthLoginRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignInResult"];
                };
            };
            /** @description Invalid input; nothing changed. `details` lists each bad field by path */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Wrong email or password (one message for both) */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A sign-in step this API does not offer (e.g. CUSTOM_CHALLENGE) */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The body is not JSON (send Content-Type: application/json); nothing changed */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The identity provider is unavailable; or the database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "auth-mfa-verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AuthMfaVerifyRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignInResult"];
                };
            };
            /** @description Invalid input; nothing changed. `details` lists each bad field by path */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Wrong or expired code */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The body is not JSON (send Content-Type: application/json); nothing changed */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The identity provider is unavailable; or the database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "auth-mfa-setup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AuthMfaSetupRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignInResult"];
                };
            };
            /** @description Invalid input; nothing changed. `details` lists each bad field by path */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Wrong code, or the session is expired, spent or not this user's (sign in again) */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A next step this API does not offer */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The body is not JSON (send Content-Type: application/json); nothing changed */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The identity provider is unavailable; or the database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "auth-webauthn-verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AuthWebauthnVerifyRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignInResult"];
                };
            };
            /** @description Invalid input; nothing changed. `details` lists each bad field by path */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The passkey assertion did not verify */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The body is not JSON (send Content-Type: application/json); nothing changed */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The identity provider is unavailable; or the database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "auth-new-password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AuthNewPasswordRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignInResult"];
                };
            };
            /** @description The new password breaks the password policy (sign in again with the temporary password) */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The session is expired, spent or not this user's */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A next step this API does not offer (e.g. CUSTOM_CHALLENGE) */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The body is not JSON (send Content-Type: application/json); nothing changed */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The identity provider is unavailable; or the database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "auth-forgot-password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AuthForgotPasswordRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuthForgotPasswordResponse"];
                };
            };
            /** @description A reset code was sent (status code_sent); the 200 answers the step that sets the new password */
            202: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuthForgotPasswordResponse"];
                };
            };
            /** @description Invalid input; nothing changed. `details` lists each bad field by path */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The body is not JSON (send Content-Type: application/json); nothing changed */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "payment-webhook": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PaymentWebhookRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentWebhookResponse"];
                };
            };
            /** @description Invalid input; nothing changed. `details` lists each bad field by path */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing, bad or stale signature; nothing stored */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The body is not JSON (send Content-Type: application/json); nothing changed */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The signing secret is not configured; or the database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "investigations-list": {
        parameters: {
            query?: {
                /** @description page size, 1 to 200 */
                limit?: number;
                /** @description the `next_cursor` of the previous page; omit for the first page */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "investigations": [
                     *         {
                     *           "investigation_id": "2f6c1b7e-4d8a-4c3b-9e5f-1a2b3c4d5e01",
                     *           "title": "Northwind supplier payments",
                     *           "description": "Payments to a new supplier without a purchase order.",
                     *           "evidence_count": 32,
                     *           "background_document_count": 3,
                     *           "created_at": "2026-05-01T09:12:44.000Z"
                     *         }
                     *       ],
                     *       "next_cursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["InvestigationsListResponse"];
                };
            };
            /** @description Invalid input; nothing changed. `details` lists each bad field by path */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing, expired or invalid token: the JWT authorizer answers {"message":"Unauthorized"} before the function runs */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Not allowed for this caller */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "investigation-create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InvestigationCreateRequest"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    /** @description Where to read the investigation (GET /api/investigations/{investigation_id}) */
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Investigation"];
                };
            };
            /** @description Invalid input; nothing changed. `details` lists each bad field by path */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing, expired or invalid token: the JWT authorizer answers {"message":"Unauthorized"} before the function runs */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Not allowed for this caller */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The body is not JSON (send Content-Type: application/json); nothing changed */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "investigation-get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                investigation_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvestigationGetResponse"];
                };
            };
            /** @description Invalid input; nothing changed. `details` lists each bad field by path */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing, expired or invalid token: the JWT authorizer answers {"message":"Unauthorized"} before the function runs */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Not allowed for this caller */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Not the caller's organization, or no such investigation */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "investigation-update": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                investigation_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InvestigationUpdateRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Investigation"];
                };
            };
            /** @description Invalid input; nothing changed. `details` lists each bad field by path */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing, expired or invalid token: the JWT authorizer answers {"message":"Unauthorized"} before the function runs */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Not allowed for this caller */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Not the caller's organization, or no such investigation */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The body is not JSON (send Content-Type: application/json); nothing changed */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "investigation-evidence": {
        parameters: {
            query?: {
                /** @description page size, 1 to 200 */
                limit?: number;
                /** @description the `next_cursor` of the previous page; omit for the first page */
                cursor?: string;
            };
            header?: never;
            path: {
                investigation_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvestigationEvidenceResponse"];
                };
            };
            /** @description Invalid input; nothing changed. `details` lists each bad field by path */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing, expired or invalid token: the JWT authorizer answers {"message":"Unauthorized"} before the function runs */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Not allowed for this caller */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such investigation in the caller's organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "evidence-create": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                investigation_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EvidenceCreateRequest"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    /** @description Where to read the evidence item (GET …/evidence/{evidence_id}) */
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EvidenceCreateResponse"];
                };
            };
            /** @description Invalid input; nothing changed. `details` lists each bad field by path */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing, expired or invalid token: the JWT authorizer answers {"message":"Unauthorized"} before the function runs */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Not allowed for this caller */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such investigation (or item) in the caller's organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The idempotency key was used before with a different request */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description A file of a type whose text cannot be extracted */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "question-create": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                investigation_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["QuestionCreateRequest"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    /** @description Where to read the investigation, which lists its questions */
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuestionCreateResponse"];
                };
            };
            /** @description Invalid input; nothing changed. `details` lists each bad field by path */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing, expired or invalid token: the JWT authorizer answers {"message":"Unauthorized"} before the function runs */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Not allowed for this caller */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Not the caller's organization, or no such investigation */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The investigation already holds as many questions as it may */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The body is not JSON (send Content-Type: application/json); nothing changed */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "topic-create": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                investigation_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TopicCreateRequest"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    /** @description Where to read the investigation, which lists its topics */
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TopicCreateResponse"];
                };
            };
            /** @description Invalid input; nothing changed. `details` lists each bad field by path */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing, expired or invalid token: the JWT authorizer answers {"message":"Unauthorized"} before the function runs */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Not allowed for this caller */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Not the caller's organization, or no such investigation */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The investigation already has a topic of this title, or as many topics as it may */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The body is not JSON (send Content-Type: application/json); nothing changed */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "evidence-get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                investigation_id: string;
                evidence_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EvidenceGetResponse"];
                };
            };
            /** @description Invalid input; nothing changed. `details` lists each bad field by path */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing, expired or invalid token: the JWT authorizer answers {"message":"Unauthorized"} before the function runs */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Not allowed for this caller */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such investigation (or item) in the caller's organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "evidence-delete": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                investigation_id: string;
                evidence_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EvidenceDeleteResponse"];
                };
            };
            /** @description Invalid input; nothing changed. `details` lists each bad field by path */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing, expired or invalid token: the JWT authorizer answers {"message":"Unauthorized"} before the function runs */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Not allowed for this caller */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such investigation (or item) in the caller's organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "evidence-update": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                investigation_id: string;
                evidence_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EvidenceUpdateRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EvidenceGetResponse"];
                };
            };
            /** @description Invalid input; nothing changed. `details` lists each bad field by path */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing, expired or invalid token: the JWT authorizer answers {"message":"Unauthorized"} before the function runs */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Not allowed for this caller */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such investigation (or item) in the caller's organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The body is not JSON (send Content-Type: application/json); nothing changed */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "attachment-add": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                investigation_id: string;
                evidence_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AttachmentAddRequest"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    /** @description Where to read the evidence item */
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EvidenceCreateResponse"];
                };
            };
            /** @description Invalid input; nothing changed. `details` lists each bad field by path */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing, expired or invalid token: the JWT authorizer answers {"message":"Unauthorized"} before the function runs */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Not allowed for this caller */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such investigation (or item) in the caller's organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The item would hold more than the most attachments an item may have */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description A file type whose text cannot be extracted */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "attachment-upload": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                investigation_id: string;
                evidence_id: string;
                attachment_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AttachmentUploadResponse"];
                };
            };
            /** @description Invalid input; nothing changed. `details` lists each bad field by path */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing, expired or invalid token: the JWT authorizer answers {"message":"Unauthorized"} before the function runs */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Not allowed for this caller */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such investigation (or item) in the caller's organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The file has already arrived */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "background-document-create": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                investigation_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BackgroundDocumentCreateRequest"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    /** @description Where to read the investigation */
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BackgroundDocumentCreateResponse"];
                };
            };
            /** @description Invalid input; nothing changed. `details` lists each bad field by path */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing, expired or invalid token: the JWT authorizer answers {"message":"Unauthorized"} before the function runs */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Not allowed for this caller */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such investigation (or item) in the caller's organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description A file type whose text cannot be extracted */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "background-document-delete": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                investigation_id: string;
                background_document_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BackgroundDocumentDeleteResponse"];
                };
            };
            /** @description Invalid input; nothing changed. `details` lists each bad field by path */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing, expired or invalid token: the JWT authorizer answers {"message":"Unauthorized"} before the function runs */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Not allowed for this caller */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such investigation (or item) in the caller's organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "background-document-update": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                investigation_id: string;
                background_document_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BackgroundDocumentUpdateRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BackgroundDocumentUpdateResponse"];
                };
            };
            /** @description Invalid input; nothing changed. `details` lists each bad field by path */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing, expired or invalid token: the JWT authorizer answers {"message":"Unauthorized"} before the function runs */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Not allowed for this caller */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such investigation (or item) in the caller's organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The body is not JSON (send Content-Type: application/json); nothing changed */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "import-create": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                investigation_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ImportCreateRequest"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    /** @description Where to read the import (GET …/imports/{import_id}) */
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportCreateResponse"];
                };
            };
            /** @description Invalid input; nothing changed. `details` lists each bad field by path */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing, expired or invalid token: the JWT authorizer answers {"message":"Unauthorized"} before the function runs */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Not allowed for this caller */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such investigation (or item) in the caller's organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The body is not JSON (send Content-Type: application/json); nothing changed */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "import-get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                investigation_id: string;
                import_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportGetResponse"];
                };
            };
            /** @description Invalid input; nothing changed. `details` lists each bad field by path */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing, expired or invalid token: the JWT authorizer answers {"message":"Unauthorized"} before the function runs */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Not allowed for this caller */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such investigation (or item) in the caller's organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "ingestion-status": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                investigation_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestionStatusResponse"];
                };
            };
            /** @description Invalid input; nothing changed. `details` lists each bad field by path */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing, expired or invalid token: the JWT authorizer answers {"message":"Unauthorized"} before the function runs */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Not allowed for this caller */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such investigation (or item) in the caller's organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "analysis-assess": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "investigation_id": "2f6c1b7e-4d8a-4c3b-9e5f-1a2b3c4d5e01",
                 *       "analysis_type": "question",
                 *       "question_id": "6a1f0c3e-2b4d-4e8f-9a7b-0c1d2e3f4a01"
                 *     }
                 */
                "application/json": components["schemas"]["AnalysisRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Assessment"];
                };
            };
            /** @description Invalid input; nothing changed. `details` lists each bad field by path */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing, expired or invalid token: the JWT authorizer answers {"message":"Unauthorized"} before the function runs */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Not allowed for this caller */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Investigation, question or topic not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The body is not JSON (send Content-Type: application/json); nothing changed */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "analysis-list": {
        parameters: {
            query: {
                investigation_id: string;
                /** @description page size, 1 to 200 */
                limit?: number;
                /** @description the `next_cursor` of the previous page; omit for the first page */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "analyses": [
                     *         {
                     *           "analysis_id": "c8864d97-5569-4e13-bf4f-c6ae8f7f44ac",
                     *           "investigation_id": "2f6c1b7e-4d8a-4c3b-9e5f-1a2b3c4d5e01",
                     *           "analysis_type": "question",
                     *           "question_id": "6a1f0c3e-2b4d-4e8f-9a7b-0c1d2e3f4a01",
                     *           "question_text": "Who approved the transfer to Baltic Industrial Supply, and when?",
                     *           "topic_id": null,
                     *           "topic_title": null,
                     *           "regenerated_from": null,
                     *           "generation_status": "verified",
                     *           "error_message": null,
                     *           "ai_wait_until": null,
                     *           "waiting_for_evidence": null,
                     *           "result": {
                     *             "summary": "The CFO approved the 9,800 EUR transfer before the invoice was received.",
                     *             "findings": [
                     *               {
                     *                 "statement": "The approval email is dated two days before invoice BIS-1041.",
                     *                 "citations": [
                     *                   "9d2e4f60-1a3b-4c5d-8e7f-a0b1c2d3e4f5"
                     *                 ]
                     *               }
                     *             ],
                     *             "confidence": "probable",
                     *             "evidence_gaps": [
                     *               "No record of who entered the payment."
                     *             ]
                     *           },
                     *           "faithfulness_score": 0.92,
                     *           "coverage_score": 0.81,
                     *           "quality_confidence": "probable",
                     *           "confidence_reason": "Faithfulness 92 % and coverage 81 % give probable; retrieval similarity 74 % is not weak.",
                     *           "quality_applies_to": "ai_text",
                     *           "edited": false,
                     *           "quality_note": null,
                     *           "evidence_coverage": {
                     *             "considered": 4,
                     *             "total": 5,
                     *             "background_documents_considered": 1
                     *           },
                     *           "retrieval_quality": {
                     *             "included": 6,
                     *             "excluded": 14,
                     *             "max_similarity": 0.71
                     *           },
                     *           "low_relevance": false,
                     *           "validation_status": "valid",
                     *           "token_usage": {
                     *             "input_tokens": 5210,
                     *             "output_tokens": 412
                     *           },
                     *           "prompt_type": "analysis_question",
                     *           "prompt_version": 2,
                     *           "model_id": "anthropic.claude-sonnet-4-20250514-v1:0",
                     *           "detail_reviewed_at": null,
                     *           "citation_checked_at": null,
                     *           "judgment_enabled": false,
                     *           "feedback_status": null,
                     *           "feedback_badge": null,
                     *           "created_at": "2026-05-01T09:12:44.000Z",
                     *           "generated_at": "2026-05-01T09:13:02.000Z"
                     *         }
                     *       ],
                     *       "next_cursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["AnalysisListResponse"];
                };
            };
            /** @description Invalid input; nothing changed. `details` lists each bad field by path */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing, expired or invalid token: the JWT authorizer answers {"message":"Unauthorized"} before the function runs */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Not allowed for this caller */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such investigation in the caller's organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "analysis-create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "investigation_id": "2f6c1b7e-4d8a-4c3b-9e5f-1a2b3c4d5e01",
                 *       "analysis_type": "question",
                 *       "question_id": "6a1f0c3e-2b4d-4e8f-9a7b-0c1d2e3f4a01"
                 *     }
                 */
                "application/json": components["schemas"]["AnalysisRequest"];
            };
        };
        responses: {
            /** @description Success */
            202: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    /** @description Where to read the analysis, to poll */
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "analysis_id": "c8864d97-5569-4e13-bf4f-c6ae8f7f44ac",
                     *       "generation_status": "queued",
                     *       "poll": "/api/analysis/c8864d97-5569-4e13-bf4f-c6ae8f7f44ac"
                     *     }
                     */
                    "application/json": components["schemas"]["AnalysisCreateResponse"];
                };
            };
            /** @description Invalid input; nothing changed. `details` lists each bad field by path */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing, expired or invalid token: the JWT authorizer answers {"message":"Unauthorized"} before the function runs */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Not allowed for this caller */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Investigation, question or topic not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No evidence, or the prompt type is deactivated */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The body is not JSON (send Content-Type: application/json); nothing changed */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The organization is at its cap of AI work in flight (generations and checks) */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Could not be queued; nothing was kept; or the database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "analysis-get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                analysis_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "analysis_id": "c8864d97-5569-4e13-bf4f-c6ae8f7f44ac",
                     *       "investigation_id": "2f6c1b7e-4d8a-4c3b-9e5f-1a2b3c4d5e01",
                     *       "analysis_type": "question",
                     *       "question_id": "6a1f0c3e-2b4d-4e8f-9a7b-0c1d2e3f4a01",
                     *       "question_text": "Who approved the transfer to Baltic Industrial Supply, and when?",
                     *       "topic_id": null,
                     *       "topic_title": null,
                     *       "regenerated_from": null,
                     *       "generation_status": "verified",
                     *       "error_message": null,
                     *       "ai_wait_until": null,
                     *       "waiting_for_evidence": null,
                     *       "result": {
                     *         "summary": "The CFO approved the 9,800 EUR transfer before the invoice was received.",
                     *         "findings": [
                     *           {
                     *             "statement": "The approval email is dated two days before invoice BIS-1041.",
                     *             "citations": [
                     *               "9d2e4f60-1a3b-4c5d-8e7f-a0b1c2d3e4f5"
                     *             ]
                     *           }
                     *         ],
                     *         "confidence": "probable",
                     *         "evidence_gaps": [
                     *           "No record of who entered the payment."
                     *         ]
                     *       },
                     *       "faithfulness_score": 0.92,
                     *       "coverage_score": 0.81,
                     *       "quality_confidence": "probable",
                     *       "confidence_reason": "Faithfulness 92 % and coverage 81 % give probable; retrieval similarity 74 % is not weak.",
                     *       "quality_applies_to": "ai_text",
                     *       "edited": false,
                     *       "quality_note": null,
                     *       "evidence_coverage": {
                     *         "considered": 4,
                     *         "total": 5,
                     *         "background_documents_considered": 1
                     *       },
                     *       "retrieval_quality": {
                     *         "included": 6,
                     *         "excluded": 14,
                     *         "max_similarity": 0.71
                     *       },
                     *       "low_relevance": false,
                     *       "validation_status": "valid",
                     *       "token_usage": {
                     *         "input_tokens": 5210,
                     *         "output_tokens": 412
                     *       },
                     *       "prompt_type": "analysis_question",
                     *       "prompt_version": 2,
                     *       "model_id": "anthropic.claude-sonnet-4-20250514-v1:0",
                     *       "detail_reviewed_at": null,
                     *       "citation_checked_at": null,
                     *       "judgment_enabled": false,
                     *       "feedback_status": null,
                     *       "feedback_badge": null,
                     *       "created_at": "2026-05-01T09:12:44.000Z",
                     *       "generated_at": "2026-05-01T09:13:02.000Z",
                     *       "claims": [
                     *         {
                     *           "statement": "The approval email is dated two days before invoice BIS-1041.",
                     *           "supported": true,
                     *           "chunk_ids": [
                     *             "9d2e4f60-1a3b-4c5d-8e7f-a0b1c2d3e4f5"
                     *           ],
                     *           "part": "finding",
                     *           "finding_index": 0
                     *         }
                     *       ],
                     *       "coverage_aspects": [
                     *         {
                     *           "aspect": "who approved the transfer",
                     *           "addressed": true,
                     *           "chunk_ids": [
                     *             "9d2e4f60-1a3b-4c5d-8e7f-a0b1c2d3e4f5"
                     *           ]
                     *         },
                     *         {
                     *           "aspect": "when it was approved",
                     *           "addressed": true,
                     *           "chunk_ids": [
                     *             "9d2e4f60-1a3b-4c5d-8e7f-a0b1c2d3e4f5"
                     *           ]
                     *         }
                     *       ],
                     *       "edit": null
                     *     }
                     */
                    "application/json": components["schemas"]["AnalysisDetail"];
                };
            };
            /** @description Invalid input; nothing changed. `details` lists each bad field by path */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing, expired or invalid token: the JWT authorizer answers {"message":"Unauthorized"} before the function runs */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Not allowed for this caller */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such analysis in the caller's organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "analysis-quality-check": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                analysis_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            202: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    /** @description Where to read the analysis's quality status, to poll */
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnalysisQualityCheckResponse"];
                };
            };
            /** @description Invalid input; nothing changed. `details` lists each bad field by path */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing, expired or invalid token: the JWT authorizer answers {"message":"Unauthorized"} before the function runs */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Not allowed for this caller */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such analysis in the caller's organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Still generating, failed, or already checking */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The organization is at its cap of AI work in flight */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Could not be queued; nothing changed; or the database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "analysis-quality-status": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                analysis_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnalysisQualityStatusResponse"];
                };
            };
            /** @description Invalid input; nothing changed. `details` lists each bad field by path */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing, expired or invalid token: the JWT authorizer answers {"message":"Unauthorized"} before the function runs */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Not allowed for this caller */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such analysis in the caller's organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "analysis-retrieval": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                analysis_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnalysisRetrievalResponse"];
                };
            };
            /** @description Invalid input; nothing changed. `details` lists each bad field by path */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing, expired or invalid token: the JWT authorizer answers {"message":"Unauthorized"} before the function runs */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Not allowed for this caller */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such analysis in the caller's organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "analysis-retrieval-chunk": {
        parameters: {
            query?: {
                /** @description chunks of the same source shown on each side of the chunk (more of the document around the passage) */
                around?: number;
            };
            header?: never;
            path: {
                analysis_id: string;
                chunk_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnalysisRetrievalChunkResponse"];
                };
            };
            /** @description Invalid input; nothing changed. `details` lists each bad field by path */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing, expired or invalid token: the JWT authorizer answers {"message":"Unauthorized"} before the function runs */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Not allowed for this caller */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such analysis in the caller's organization, or the chunk is not among its retrieval */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "analysis-export": {
        parameters: {
            query?: {
                /** @description json: the record below; pdf: the same record as a PDF document (application/pdf, a download) */
                format?: "json" | "pdf";
            };
            header?: never;
            path: {
                analysis_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnalysisExport"];
                    "application/pdf": string;
                };
            };
            /** @description Invalid input; nothing changed. `details` lists each bad field by path */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing, expired or invalid token: the JWT authorizer answers {"message":"Unauthorized"} before the function runs */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Not allowed for this caller */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such analysis in the caller's organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "analysis-engagement": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                analysis_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AnalysisEngagementRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnalysisEngagementResponse"];
                };
            };
            /** @description Invalid input; nothing changed. `details` lists each bad field by path */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing, expired or invalid token: the JWT authorizer answers {"message":"Unauthorized"} before the function runs */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Not allowed for this caller */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such analysis in the caller's organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Gate B before Gate A, or no output yet */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The body is not JSON (send Content-Type: application/json); nothing changed */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "analysis-feedback-list": {
        parameters: {
            query?: {
                /** @description page size, 1 to 200 */
                limit?: number;
                /** @description the `next_cursor` of the previous page; omit for the first page */
                cursor?: string;
            };
            header?: never;
            path: {
                analysis_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnalysisFeedbackListResponse"];
                };
            };
            /** @description Invalid input; nothing changed. `details` lists each bad field by path */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing, expired or invalid token: the JWT authorizer answers {"message":"Unauthorized"} before the function runs */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Not allowed for this caller */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such analysis in the caller's organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "analysis-feedback-create": {
        parameters: {
            query?: never;
            header?: {
                /** @description the same as the body's request_id: a retried submit with it records once */
                "Idempotency-Key"?: string;
            };
            path: {
                analysis_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "action": "regenerate",
                 *       "reason": "wrong_focus",
                 *       "direction": "Focus on who approved the payment."
                 *     }
                 */
                "application/json": components["schemas"]["FeedbackRequest"];
            };
        };
        responses: {
            /** @description A retry with a request id already used for this action: nothing new was recorded; the first answer again */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnalysisFeedbackCreateResponse"];
                };
            };
            /** @description Success */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    /** @description Where to read the feedback record */
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnalysisFeedbackCreateResponse"];
                };
            };
            /** @description Invalid input; nothing changed. `details` lists each bad field by path */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing, expired or invalid token: the JWT authorizer answers {"message":"Unauthorized"} before the function runs */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Not allowed for this caller */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such analysis in the caller's organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Judgment before both gates, no output yet, or a request id reused for another action */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The body is not JSON (send Content-Type: application/json); nothing changed */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Regeneration over the organization's generation cap */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The regeneration could not be queued; nothing was recorded; or the database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "analysis-feedback-get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                analysis_id: string;
                feedback_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FeedbackRecord"];
                };
            };
            /** @description Invalid input; nothing changed. `details` lists each bad field by path */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing, expired or invalid token: the JWT authorizer answers {"message":"Unauthorized"} before the function runs */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Not allowed for this caller */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such feedback record on that analysis in the caller's organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "feedback-metrics": {
        parameters: {
            query: {
                investigation_id: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FeedbackMetricsResponse"];
                };
            };
            /** @description Invalid input; nothing changed. `details` lists each bad field by path */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing, expired or invalid token: the JWT authorizer answers {"message":"Unauthorized"} before the function runs */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Not allowed for this caller */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such investigation in the caller's organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "storage-view": {
        parameters: {
            query?: {
                attachment_id?: string;
                background_document_id?: string;
                /** @description true (default): 302 to the presigned URL; false: 200 with the link as JSON (for clients that cannot read a redirect) */
                redirect?: "true" | "false";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    /** @description Where to read the presigned URL (with the 302) */
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StorageViewResponse"];
                };
            };
            /** @description Redirect to a short-lived presigned URL of the file (unless redirect=false) */
            302: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input; nothing changed. `details` lists each bad field by path */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing, expired or invalid token: the JWT authorizer answers {"message":"Unauthorized"} before the function runs */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Not allowed for this caller */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such file in the caller's organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "background-extract-text": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BackgroundExtractTextRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BackgroundExtractTextResponse"];
                };
            };
            /** @description Invalid input; nothing changed. `details` lists each bad field by path */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing, expired or invalid token: the JWT authorizer answers {"message":"Unauthorized"} before the function runs */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Not allowed for this caller */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such background document in the caller's organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Unsupported file type or charset */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Unreadable, empty, too large or missing file */
            422: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "admin-prompt-history": {
        parameters: {
            query: {
                prompt_type: "analysis_question" | "analysis_topic" | "analysis_summary" | "analysis_gap" | "analysis_error_check" | "quality_faithfulness" | "quality_coverage";
                version?: string;
                /** @description page size, 1 to 20 */
                limit?: number;
                /** @description the `next_cursor` of the previous page; omit for the first page */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminPromptHistoryResponse"];
                };
            };
            /** @description Invalid input; nothing changed. `details` lists each bad field by path */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing, expired or invalid token: the JWT authorizer answers {"message":"Unauthorized"} before the function runs */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Not allowed for this caller */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such version */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "admin-prompt-rollback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AdminPromptRollbackRequest"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    /** @description Where to read the new version */
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PromptVersion"];
                };
            };
            /** @description Invalid input; nothing changed. `details` lists each bad field by path */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing, expired or invalid token: the JWT authorizer answers {"message":"Unauthorized"} before the function runs */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Not allowed for this caller */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such version */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Same content as the current version */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The body is not JSON (send Content-Type: application/json); nothing changed */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "admin-prompt-create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AdminPromptCreateRequest"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    /** @description Where to read the new version */
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PromptVersion"];
                };
            };
            /** @description Invalid input; nothing changed. `details` lists each bad field by path */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing, expired or invalid token: the JWT authorizer answers {"message":"Unauthorized"} before the function runs */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Not allowed for this caller */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Same content as the current version */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The body is not JSON (send Content-Type: application/json); nothing changed */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "admin-prompt-update": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description one of analysis_question, analysis_topic, analysis_summary, analysis_gap, analysis_error_check, quality_faithfulness, quality_coverage; another is a 404 */
                prompt_type: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AdminPromptUpdateRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminPromptUpdateResponse"];
                };
            };
            /** @description Invalid input; nothing changed. `details` lists each bad field by path */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing, expired or invalid token: the JWT authorizer answers {"message":"Unauthorized"} before the function runs */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Not allowed for this caller */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No such prompt type */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The body is not JSON (send Content-Type: application/json); nothing changed */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "admin-settings-get": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SettingsList"];
                };
            };
            /** @description Missing, expired or invalid token: the JWT authorizer answers {"message":"Unauthorized"} before the function runs */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Not allowed for this caller */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "admin-settings-put": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AdminSettingsPutRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SettingsList"];
                };
            };
            /** @description Invalid input; nothing changed. `details` lists each bad field by path */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing, expired or invalid token: the JWT authorizer answers {"message":"Unauthorized"} before the function runs */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Not allowed for this caller */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The body is not JSON (send Content-Type: application/json); nothing changed */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "admin-queue-stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminQueueStatsResponse"];
                };
            };
            /** @description Missing, expired or invalid token: the JWT authorizer answers {"message":"Unauthorized"} before the function runs */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Not allowed for this caller */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "admin-audit-health": {
        parameters: {
            query?: {
                window_hours?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminAuditHealthResponse"];
                };
            };
            /** @description Invalid input; nothing changed. `details` lists each bad field by path */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing, expired or invalid token: the JWT authorizer answers {"message":"Unauthorized"} before the function runs */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Not allowed for this caller */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "admin-users": {
        parameters: {
            query?: {
                /** @description page size, 1 to 200 */
                limit?: number;
                /** @description the `next_cursor` of the previous page; omit for the first page */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminUsersResponse"];
                };
            };
            /** @description Invalid input; nothing changed. `details` lists each bad field by path */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing, expired or invalid token: the JWT authorizer answers {"message":"Unauthorized"} before the function runs */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Not allowed for this caller */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "admin-jobs-status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminJobsStatusResponse"];
                };
            };
            /** @description Missing, expired or invalid token: the JWT authorizer answers {"message":"Unauthorized"} before the function runs */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Not allowed for this caller */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "embedding-sweeper": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmbeddingSweeperResponse"];
                };
            };
            /** @description Neither the cron secret nor a valid administrator token (the Error shape) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Not allowed for this caller */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
    "retention-sweep": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RetentionSweepResponse"];
                };
            };
            /** @description Neither the cron secret nor a valid administrator token (the Error shape) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Not allowed for this caller */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the request is larger than its payload limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
            /** @description Too many requests: the service's rate limit (the Error shape, with Retry-After) or API Gateway's throttle ({"message":"Too Many Requests"}) */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description An unexpected fault (code internal_error), or API Gateway could not run the function */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"] | components["schemas"]["GatewayMessage"];
                };
            };
            /** @description The database is not answering (code database_unavailable; nothing was changed): retry after Retry-After */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description API Gateway: the function did not answer within the integration timeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayMessage"];
                };
            };
        };
    };
}
